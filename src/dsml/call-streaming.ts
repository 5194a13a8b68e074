/**
 * Tool calls that stream as they form (`streamToolCalls`). The structure
 * tells this what it reads (an invoke begun, a parameter opened, its text, a
 * parameter closed), and it writes the call as a client of a native call
 * would see it: `tool-call-start` (id, name) as soon as the invoke, named,
 * goes on past its opener (the text or the first argument after it; a text
 * that ends right after an opener leaves it unannounced, and a call closed
 * right after its opener is written whole, if made, as without the option),
 * then the arguments' JSON text in
 * `tool-call-delta` pieces: a string argument as its value arrives
 * (`StringValuePieces`), every other one whole when it closes, in the shape
 * the schema sends it (`conformedArgument`).
 *
 * The call ends where the engine decides it (`Markup`): `complete` writes
 * what the arguments read whole hold beyond what was streamed (the closing
 * brace, at least), so the pieces joined are the JSON text the call is sent
 * with. When they would not be (a duplicate parameter, a value the schema
 * changed), nothing more is written and the end says so (`stream-mismatch`).
 * A call cut off writes nothing more: its arguments stay cut, as a native
 * call's are at a length limit.
 *
 * Only a plain invoke is streamed: one in markup a marker confirmed, named
 * by its opener with a tool name the options accept, outside documentation.
 */
import type { CallAcceptance } from './acceptance.ts'
import { StringValuePieces } from './arguments.ts'
import { asksForJson, isToolName } from './grammar.ts'
import type { ResolvedOptions } from './options.ts'
import type { Output } from './output.ts'
import type { Invoke, Parameter, State } from './states.ts'
import type { DiagnosticKind } from './types.ts'
import { conformedArgument, keepsStrings, type ToolSchema } from './tool-schema.ts'
import { TextBuilder } from '../text-builder.ts'

/** One call as it is streamed. */
export interface CallStream {
  /** Given when it is announced. */
  id: string
  readonly name: string
  readonly schema: ToolSchema | undefined
  /** The arguments' JSON text written so far. */
  readonly written: TextBuilder
  /** Arguments written (a comma goes before the next). */
  keys: number
  /** The parameter open now, and its value's pieces when it is written as it arrives. */
  open: Parameter | undefined
  pieces: StringValuePieces | undefined
  /** Decoded characters of the open value written so far. */
  valueWritten: number
  /** What was streamed can no longer be the arguments' text: nothing more is written. */
  diverged: boolean
  /** Its start went out (at its first argument): from then on it ends as streamed (`Markup`). */
  announced: boolean
  /** Its end was written. */
  done: boolean
}

type ParameterState = Extract<State, { kind: 'parameter' }>

export class CallStreaming {
  #resolved: ResolvedOptions
  #acceptance: CallAcceptance
  #output: Output

  constructor(resolved: ResolvedOptions, acceptance: CallAcceptance, output: Output) {
    this.#resolved = resolved
    this.#acceptance = acceptance
    this.#output = output
  }

  /** The structure went from `before` to `after` on one tag (`documentation`: what it reads is documentation). */
  observe(before: State, after: State, documentation: boolean): void {
    if (before.kind === 'parameter' && before !== after) this.#parameterClosed(before.invoke.stream, before.parameter, before.invoke)
    if (after.kind === 'invoke' && after.invoke.stream === undefined) after.invoke.stream = this.#begin(after, documentation)
    if (after.kind === 'parameter' && after !== before && after.within === 'invoke') this.#parameterOpened(after)
  }

  /**
   * Text inside an invoke, between its tags: the invoke goes on past its
   * opener, so its call is announced (a text that ends right after an
   * opener leaves it unannounced, as the call it could not be).
   */
  invokeText(state: Extract<State, { kind: 'invoke' }>): void {
    const stream = state.invoke.stream
    if (stream != null && !stream.announced && !stream.done) this.#announce(stream)
  }

  /** Text of a parameter's value, as the structure holds it. */
  text(state: ParameterState, text: string): void {
    const stream = state.invoke.stream
    if (stream == null || !stream.announced || stream.diverged || stream.open !== state.parameter || stream.pieces === undefined) return
    const piece = stream.pieces.push(text)
    if (piece.length === 0) return
    stream.valueWritten += piece.length
    this.#write(stream, escaped(piece))
  }

  /** Was this invoke announced: does it end as a streamed call? */
  static announced(invoke: Invoke | undefined): boolean {
    return invoke?.stream?.announced === true
  }

  /**
   * A streamed call ends, where the engine decides its invoke: with `args`
   * (read whole: as sent when it is made), its markup as `source`, and, when
   * it would not have been made, why (`failure`: the call still ends, as
   * streamed). `cut`: the text ended inside it.
   */
  end(invoke: Invoke, args: Record<string, unknown>, source: string, failure?: { kind: DiagnosticKind; message: string }, cut = false): void {
    const stream = invoke.stream!
    this.#complete(invoke, stream, args, cut)
    const output = this.#output
    output.push({ type: 'tool-call', call: { id: stream.id, name: stream.name, arguments: args }, source, streamed: true })
    if (failure === undefined) output.push({ type: 'diagnostic', diagnostic: { kind: 'recovered-call', text: '', tool: stream.name, message: `Recovered a call to "${stream.name}"` } })
    else output.diagnose(failure.kind, '', `${failure.message} (it was streamed, and ends as streamed)`, stream.name)
    output.noteRemoval()
  }

  /**
   * What `args` hold beyond what was streamed is written, so the pieces
   * joined are their JSON text. Unless `cut` (the text ended inside it:
   * nothing more, as a native call's arguments stop at a length limit).
   */
  #complete(invoke: Invoke, stream: CallStream, args: Record<string, unknown>, cut: boolean): void {
    if (stream.done) return
    if (stream.open !== undefined) this.#parameterClosed(stream, stream.open, invoke)
    stream.done = true
    if (cut) return
    const whole = JSON.stringify(args)
    const written = stream.written.toString()
    if (!stream.diverged && whole.startsWith(written)) {
      if (whole.length > written.length) this.#write(stream, whole.slice(written.length))
      return
    }
    this.#output.diagnose('stream-mismatch', '', `Call to "${stream.name}" was streamed with arguments that differ from the ones read whole; it ends as streamed`, stream.name)
  }

  /** A call begins, if this invoke is one to stream. */
  #begin(state: Extract<State, { kind: 'invoke' }>, documentation: boolean): CallStream | null {
    const { invoke, region } = state
    const name = invoke.name
    if (documentation || !region.confirmed || invoke.markerless || invoke.implied || this.#output.stopped) return null
    if (name === undefined || !isToolName(name) || !this.#acceptance.acceptsName(name)) return null
    const stream: CallStream = {
      id: '',
      name,
      schema: this.#acceptance.schemaOf(name),
      written: new TextBuilder(),
      keys: 0,
      open: undefined,
      pieces: undefined,
      valueWritten: 0,
      diverged: false,
      announced: false,
      done: false,
    }
    return stream
  }

  #parameterOpened(state: ParameterState): void {
    const stream = state.invoke.stream
    if (stream == null || stream.diverged || stream.done) return
    if (!stream.announced) this.#announce(stream)
    const parameter = state.parameter
    stream.open = parameter
    stream.pieces = undefined
    stream.valueWritten = 0
    const key = parameter.name
    if (key === undefined || key === '' || parameter.unnamed || parameter.field) return
    // A name read again replaces its value where the first stood: the text streamed for it cannot be taken back.
    if (Object.hasOwn(state.invoke.args, key)) {
      stream.diverged = true
      return
    }
    if (asksForJson(parameter.stringAttribute) || !keepsStrings(stream.schema, key)) return
    stream.pieces = new StringValuePieces()
    this.#write(stream, `${stream.keys > 0 ? ',' : ''}${JSON.stringify(key)}:"`)
  }

  #parameterClosed(stream: CallStream | null | undefined, parameter: Parameter, invoke: Invoke): void {
    if (stream == null || !stream.announced || stream.done || stream.open !== parameter) return
    const pieces = stream.pieces
    stream.open = undefined
    stream.pieces = undefined
    if (stream.diverged) return
    const key = parameter.name
    const set = key !== undefined && key !== '' && !parameter.unnamed && !parameter.field && Object.hasOwn(invoke.args, key)
    if (pieces !== undefined) {
      const value = set ? invoke.args[key] : undefined
      // The value read whole goes on from what was written of it (one held at its start is written whole now).
      if (typeof value !== 'string' || (!pieces.streams && stream.valueWritten > 0) || value.length < stream.valueWritten) {
        stream.diverged = true
        return
      }
      this.#write(stream, `${escaped(value.slice(stream.valueWritten))}"`)
      stream.keys++
      return
    }
    if (!set) return
    this.#write(stream, `${stream.keys > 0 ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(conformedArgument(stream.schema, key, invoke.args[key]))}`)
    stream.keys++
  }

  /** The call's start goes out, and its arguments' opening brace. */
  #announce(stream: CallStream): void {
    stream.announced = true
    stream.id = this.#resolved.generateId()
    this.#output.push({ type: 'tool-call-start', id: stream.id, name: stream.name })
    this.#write(stream, '{')
  }

  #write(stream: CallStream, delta: string): void {
    stream.written.append(delta)
    this.#output.push({ type: 'tool-call-delta', id: stream.id, delta })
  }
}

/** Text as it stands inside a JSON string (its quotes left out). */
function escaped(text: string): string {
  const json = JSON.stringify(text)
  return json.slice(1, json.length - 1)
}
