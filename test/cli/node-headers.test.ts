// Header fields between node:http and the web Headers, both ways (Node only).
import { expect, test } from 'vitest'
import { nodeHeaders, webHeaders } from '../../src/cli/node-headers.ts'

test('raw header lines become web Headers, repeated fields kept', () => {
  const headers = webHeaders(['Content-Type', 'application/json', 'X-Tag', 'a', 'x-tag', 'b', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2'])
  expect(headers.get('content-type')).toBe('application/json')
  expect(headers.get('x-tag')).toBe('a, b')
  expect(headers.getSetCookie()).toEqual(['a=1', 'b=2'])
})

test('web Headers as node:http writes them: repeats joined, set-cookie as its separate lines', () => {
  const headers = new Headers([['content-type', 'text/event-stream'], ['x-tag', 'a'], ['x-tag', 'b'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2']])
  expect(nodeHeaders(headers)).toEqual({ 'content-type': 'text/event-stream', 'x-tag': 'a, b', 'set-cookie': ['a=1', 'b=2'] })
  expect(nodeHeaders(new Headers())).toEqual({})
})
