/**
 * request-paths.ts: the one routing rule of the gateway and
 * `createRepairFetch` — each dialect's route by its last segments under any
 * prefix, trailing slashes ignored, and the part of a path its API reads —
 * and that every path is read in linear time.
 */
import { apiPathOf, dialectRouteOf, withoutTrailingSlashes } from '../src/request-paths.ts'
import { assert, assertEqual } from './support/assert.ts'
import { defineSuite } from './support/harness.ts'

export const suite = defineSuite('request-paths', (test) => {
  test('dialect routes by their last segments, under any prefix; other paths are no route', () => {
    const table: Array<[string, ReturnType<typeof dialectRouteOf>]> = [
      ['/v1/chat/completions', 'chat-completions'],
      ['/chat/completions', 'chat-completions'],
      ['/api/v1/chat/completions/', 'chat-completions'],
      ['/openai/deployments/x/chat/completions', 'chat-completions'],
      ['/v1/messages', 'anthropic-messages'],
      ['/anthropic/v1/messages', 'anthropic-messages'],
      ['/messages', 'anthropic-messages'],
      ['/v1/threads/t/messages', undefined],
      ['/v1/messages/count_tokens', undefined],
      ['/v1/responses', 'responses'],
      ['/api/responses//', 'responses'],
      ['/v1/responses/resp_1', undefined],
      ['/v1/completions', undefined],
      ['/v1/models', undefined],
      ['/', undefined],
    ]
    for (const [path, route] of table) assertEqual(dialectRouteOf(path), route, path)
  })

  test('the API path: what follows the last v1 segment, or the whole path', () => {
    const table: Array<[string, string]> = [
      ['/v1/models', '/models'],
      ['/api/v1/models/', '/models'],
      ['/models', '/models'],
      ['/v1', ''],
      ['/', ''],
      ['/v10/models', '/v10/models'],
      ['/a/v1/b/v1/c', '/c'],
      ['/v1/messages/count_tokens', '/messages/count_tokens'],
    ]
    for (const [path, api] of table) assertEqual(apiPathOf(path), api, path)
    assertEqual(withoutTrailingSlashes('/x///'), '/x', 'trailing slashes')
    assertEqual(withoutTrailingSlashes('///'), '/', 'the root stays')
  })

  test('long hostile paths are read in linear time (16,000 slashes, 16,000 v1 segments)', () => {
    const started = Date.now()
    for (const path of [`/x${'/'.repeat(16_000)}a`, '/v1'.repeat(16_000), `${'/v1'.repeat(16_000)}x`, `/${'/'.repeat(16_000)}`]) {
      dialectRouteOf(path)
      apiPathOf(path)
    }
    assertEqual(apiPathOf(`${'/v1'.repeat(16_000)}/models`), '/models', 'the last v1 segment')
    // Not a timing test: quadratic reading of these paths would take seconds, linear takes well under one.
    assert(Date.now() - started < 5_000, 'read at once')
  })
})
