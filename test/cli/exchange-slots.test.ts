// ExchangeSlots (src/cli/exchange-slots.ts): at most `size` held; each slot given back once, however many paths
// release it (gateway siege row 1: a slot released twice must not make room for two).
import { expect, test } from 'vitest'
import { ExchangeSlots } from '../../src/cli/exchange-slots.ts'

test('gateway siege row 1: slots run out at the size, and a slot released on several paths is given back once', () => {
  const slots = new ExchangeSlots(2)
  const first = slots.take()
  const second = slots.take()
  expect(first).toBeDefined()
  expect(second).toBeDefined()
  expect(slots.take()).toBeUndefined()
  first!.release()
  first!.release()
  expect(slots.free).toBe(1)
  const third = slots.take()
  expect(third).toBeDefined()
  expect(slots.take()).toBeUndefined()
  second!.release()
  third!.release()
  expect(slots.free).toBe(2)
})
