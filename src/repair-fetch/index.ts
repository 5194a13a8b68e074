export { createRepairFetch, type FetchFunction, type RepairFetchOptions } from './repair-fetch.ts'
