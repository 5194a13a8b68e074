// Capacity (src/cli/capacity.ts): at most `size` units held; each share given back once, however many paths
// release it (gateway siege row 1: a slot released twice must not make room for two; row 2/3: a body's bytes
// grow its share as they arrive, and past the budget nothing is taken).
import { expect, test } from 'vitest'
import { Capacity } from '../../src/cli/capacity.ts'

test('gateway siege row 1: slots run out at the size, and a slot released on several paths is given back once', () => {
  const slots = new Capacity(2)
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

test('gateway siege rows 2 and 3: a share grows while units are free, refuses past them without taking any, and gives all back once', () => {
  const bytes = new Capacity(100)
  const body = bytes.take(0)!
  expect(body.grow(60)).toBe(true)
  const other = bytes.take(30)!
  expect(body.grow(20)).toBe(false)
  expect(body.units).toBe(60)
  expect(bytes.free).toBe(10)
  expect(bytes.take(11)).toBeUndefined()
  body.release()
  body.release()
  expect(body.grow(1)).toBe(false)
  expect(bytes.free).toBe(70)
  other.release()
  expect(bytes.free).toBe(100)
})
