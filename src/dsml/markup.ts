/**
 * What becomes of a region's markup (`states.ts`): held while the region is
 * read, then recovered as a call, removed and reported, or released as text.
 * The structure layer (`structure.ts`) decides when; each method here does
 * one outcome and returns the state that follows it.
 */
import { type CallAcceptance, toolOf } from './acceptance.ts'
import {
  parseFencedJsonCall,
  parseJsonInTagCall,
  parseJsonObjectBody,
  parseSpecialTokenCall,
  setArgument,
  toolNameElementOf,
  typeValue,
} from './arguments.ts'
import { isToolName, TOOL_NAME_CARRIER } from './grammar.ts'
import { TextBuilder } from '../text-builder.ts'
import { CallStreaming } from './call-streaming.ts'
import { readToolNameBody } from './tool-name-body.ts'
import type { ResolvedOptions } from './options.ts'
import type { Output } from './output.ts'
import {
  block,
  inArguments,
  inInvoke,
  inParameter,
  inSpecialCalls,
  type Invoke,
  newInvoke,
  OUTSIDE,
  type Parameter,
  type Region,
  type State,
} from './states.ts'
import type { ToolCall } from './types.ts'
import { MAX_JSON_DEPTH } from '../json-text.ts'

type ParameterState = Extract<State, { kind: 'parameter' | 'orphan-parameter' }>
type BlockState = Extract<State, { kind: 'lone-block' | 'block' }>

export class Markup {
  #resolved: ResolvedOptions
  #output: Output
  #acceptance: CallAcceptance
  /** Markup of the current region. */
  #held = new TextBuilder()
  /** Text after a lone block opener: released if the block turns out empty. */
  #gap = new TextBuilder()
  /** Calls completed now are not made (`Structure.documentation`). */
  documentation = false
  /** `streamToolCalls`: where a streamed invoke ends, as a call whatever is decided. */
  #streaming: CallStreaming | undefined

  constructor(resolved: ResolvedOptions, output: Output, acceptance: CallAcceptance, streaming: CallStreaming | undefined) {
    this.#resolved = resolved
    this.#output = output
    this.#acceptance = acceptance
    this.#streaming = streaming
  }

  get heldChars(): number {
    return this.#held.length + this.#gap.length
  }

  /** The region's text so far, as a release would emit it. */
  heldText(): string {
    return this.#held.toString() + this.#gap.toString()
  }

  /** Does the region's text hold a backtick (so that, released, it could open a code span)? */
  holdsBacktick(): boolean {
    return this.#held.toString().includes('`') || this.#gap.toString().includes('`')
  }

  /** Text after a lone block opener, so far. */
  get gapChars(): number {
    return this.#gap.length
  }

  // ── holding ───────────────────────────────────────────────────────────

  /** Appends markup to `state`'s region, reporting it in capped pieces instead of growing. */
  hold(state: State, text: string): void {
    if (state.kind !== 'outside') state.region.consumed += text.length
    const cap = this.#resolved.maxMarkupChars
    while (this.#held.length + text.length > cap) {
      const room = cap - this.#held.length
      this.#held.append(text.slice(0, room))
      text = text.slice(room)
      this.#overflow(state)
    }
    this.#held.append(text)
  }

  /** Text after a lone block opener. */
  holdGap(region: Region, text: string): void {
    region.consumed += text.length
    this.#gap.append(text)
  }

  /** Enters a region's first state with its opener's text. */
  begin(state: State, text: string): State {
    this.hold(state, text)
    return state
  }

  /** A tag between a block's elements: the gap after a lone opener becomes markup too. */
  startElement(state: BlockState, text: string): State {
    const region = state.region
    const next: State = state.kind === 'block' ? state : block(region)
    if (state.kind === 'lone-block' && this.#gap.length > 0) {
      const gap = this.#gap.take()
      region.named ??= toolNameElementOf(gap)
      region.consumed -= gap.length
      this.hold(next, gap)
    }
    this.hold(next, text)
    return next
  }

  // ── regions ───────────────────────────────────────────────────────────

  /** An unconfirmed candidate proved to be text: everything it held comes out unchanged. */
  release(): State {
    const held = this.#held.take()
    this.#output.emitText(this.#gap.length > 0 ? held + this.#gap.take() : held)
    return OUTSIDE
  }

  closeBlock(region: Region): State {
    if (!region.confirmed) return this.release()
    this.#drop('DSML block markup removed')
    return this.#endRegion()
  }

  /** A block the text ended in: what it still holds is removed. */
  closeUnclosedBlock(): State {
    this.#drop('Unclosed DSML block removed')
    return OUTSIDE
  }

  /** A markered block opener followed by text only: try the fenced-JSON rescue, else drop the opener and release the text. */
  resolveLoneBlock(region: Region): State {
    if (this.#resolved.rescues.fencedJson) {
      const gap = this.#gap.take()
      const fenced = parseFencedJsonCall(gap)
      if (fenced !== undefined) {
        const next: State = block(region)
        region.consumed -= gap.length // counted again as it is held
        this.hold(next, gap.slice(0, fenced.end))
        this.#finishCall(region, fenced.name, fenced.arguments, [])
        this.hold(next, gap.slice(fenced.end))
        return next
      }
      this.#gap.append(gap)
    }
    this.#drop('DSML block opener with no call after it')
    const text = this.#gap.take()
    const next = this.#endRegion()
    this.#output.emitText(text)
    return next
  }

  /**
   * A block closer after nothing but text: a JSON-in-tag call if that text is
   * one (`<tool_call name="X">{json}`, `<function_call>{"name", "arguments"}`),
   * else undefined and nothing changed. With no marker, only a declared tool.
   */
  closeJsonInTag(region: Region, closer: string): State | undefined {
    if (!this.#resolved.rescues.rawJsonBody) return undefined
    const call = parseJsonInTagCall(region.named, this.#gap.toString())
    if (call === undefined) return undefined
    if (!region.confirmed && this.#acceptance.markerlessRejection(call.name) !== undefined) return undefined
    if (this.#acceptance.argumentsRejection(call.name, call.arguments) !== undefined) return undefined
    const gap = this.#gap.take()
    region.consumed -= gap.length // counted again as it is held
    this.hold(block(region), gap)
    this.hold(block(region), closer)
    this.#finishCall(region, call.name, call.arguments, [])
    return this.#endRegion()
  }

  /** A pre-DSML call's end token: a call if it holds a tool name and a JSON object, else removed. */
  finishSpecialCall(region: Region, invoke: Invoke): State {
    const call = invoke.overflowed ? undefined : parseSpecialTokenCall(invoke.header, invoke.body.join(''))
    if (call === undefined) this.#drop('DeepSeek special-token call removed: no tool name and JSON arguments')
    else {
      const rejection = this.#acceptance.argumentsRejection(call.name, call.arguments)
      if (rejection !== undefined) this.#drop(rejection, call.name)
      else this.#finishCall(region, call.name, call.arguments, [])
    }
    return region.inBlock ? inSpecialCalls(region) : this.#endRegion()
  }

  /** The end of an invoke, a parameter or a tag the text ended in: removed (V16). */
  cutOff(invoke: Invoke | undefined): void {
    const message = 'DSML markup cut off by the end of the text removed'
    if (invoke === undefined) this.#drop(message)
    else this.#dropInvoke(invoke, message, invoke.args, true)
  }

  // ── invokes and parameters ────────────────────────────────────────────

  /**
   * A parameter's value ends: the argument goes to its invoke. `loose`: not by
   * its own closer; `cut`: by an invoke or block tag, so the invoke never closed either.
   */
  closeParameter(state: ParameterState, loose: boolean, cut = false): State {
    const { region, parameter } = state
    if (state.kind === 'orphan-parameter') {
      if (!region.confirmed) return this.release()
      const implied = this.#impliedInvoke(region, parameter)
      if (implied !== undefined) return implied
      // V10: a parameter with no invoke names no tool.
      this.#drop('DSML parameter outside any invoke removed (no tool name)')
      return this.#afterElement(region)
    }
    const invoke = state.invoke
    const next = inArguments(state.within, region, invoke)
    if (loose) invoke.loose = true
    if (cut) invoke.cut = true
    if (parameter.overflowed) {
      invoke.overflowed = true
      return next
    }
    if (parameter.unnamed) {
      // The compact form's one argument: named when the call ends (`finishInvoke`); a second one is not the form.
      if (invoke.unnamed !== undefined) invoke.loose = true
      invoke.unnamed = { value: typeValue(parameter.value.take(), parameter.stringAttribute).value }
      return next
    }
    const name = parameter.name
    if (name === undefined || name === '') {
      invoke.loose = true
      return next
    }
    const typed = typeValue(parameter.value.take(), parameter.stringAttribute)
    setArgument(invoke.args, name, typed.value)
    invoke.argumentCount++
    if (!parameter.markerless) invoke.markeredArgumentCount++
    if (parameter.stringAttribute !== undefined) invoke.hasStringAttribute = true
    if (typed.invalidJson) invoke.invalidJson.push(name)
    return next
  }

  /**
   * An invoke whose opener was lost, named by the markup around the arguments
   * (the orphanInvoke rescue): a parameter called `name` holding the tool
   * name (then the arguments follow), or the block's `<name>` element or
   * `name` attribute (then this parameter is the first argument).
   */
  #impliedInvoke(region: Region, parameter: Parameter): State | undefined {
    if (!this.#resolved.rescues.orphanInvoke || parameter.overflowed) return undefined
    if (parameter.name === TOOL_NAME_CARRIER && region.named === undefined) {
      const name = parameter.value.take().trim()
      return isToolName(name) ? inInvoke(region, impliedInvoke(name)) : undefined
    }
    if (region.named === undefined || !isToolName(region.named)) return undefined
    return this.closeParameter(inParameter(region, impliedInvoke(region.named), 'invoke', parameter) as ParameterState, false)
  }

  abandonInvoke(region: Region, invoke: Invoke, message: string): State {
    if (!region.confirmed) return this.release()
    this.#dropInvoke(invoke, message)
    return this.#afterElement(region)
  }

  /** An invoke ends: a call, or removed with the reason. `unclosed`: ended by the block closer or the next invoke, not its own closer. */
  finishInvoke(region: Region, invoke: Invoke, wrapped: boolean, unclosed = false): State {
    const unnamed = this.#nameUnnamed(invoke)
    if (unnamed !== undefined) {
      this.#dropInvoke(invoke, unnamed)
      return this.#afterElement(region)
    }
    let args: Record<string, unknown> | undefined = invoke.argumentCount > 0 ? invoke.args : undefined
    let usedBody = false
    if (args === undefined && !wrapped && !invoke.overflowed) {
      const body = invoke.body.join('')
      args = parseJsonObjectBody(body)
      usedBody = args !== undefined
      // Nothing inside: a zero-argument invoke (acceptance decides whether it may be a call).
      if (args === undefined && body.trim() === '') args = {}
    }
    const reason =
      args === undefined
        ? 'DSML invoke removed: no arguments'
        : (this.#acceptance.rejectionOf(invoke, { wrapped, inBlock: region.inBlock, usedBody, confirmed: region.confirmed, unclosed }) ??
          this.#acceptance.argumentsRejection(invoke.name!, args))
    if (reason !== undefined) {
      if (!region.confirmed) return this.release()
      this.#dropInvoke(invoke, reason, args)
    } else {
      this.#finishCall(region, invoke.name!, args!, invoke.invalidJson, invoke)
    }
    return this.#afterElement(region)
  }

  /**
   * The compact form's unnamed argument takes the name of the declared
   * schema's only required property. Returns why the call cannot be made when
   * there is no such name, else undefined (the argument is set, if there was one).
   */
  #nameUnnamed(invoke: Invoke): string | undefined {
    const unnamed = invoke.unnamed
    if (unnamed === undefined || invoke.name === undefined || !isToolName(invoke.name)) return undefined
    const name = this.#acceptance.unnamedArgumentName(invoke.name)
    if (name === undefined) return `Compact call to "${invoke.name}" removed: its argument has no name, and no declared schema of the tool has a single required property to give it one`
    if (!Object.hasOwn(invoke.args, name)) {
      setArgument(invoke.args, name, unnamed.value)
      invoke.argumentCount++
      invoke.markeredArgumentCount++
    }
    invoke.unnamed = undefined
    return undefined
  }

  /**
   * A tool-name tag's end: its fields (DSML-marked, or plain elements), or a
   * JSON object as its whole body, are the arguments.
   */
  finishToolNameTag(region: Region, invoke: Invoke): State {
    let reason = invoke.overflowed ? 'DSML tag named after a tool removed: it passed maxHoldChars' : readToolNameBody(invoke)
    reason ??= this.#nameUnnamed(invoke) ?? this.#acceptance.argumentsRejection(invoke.name!, invoke.args)
    if (reason === undefined && !this.#resolved.rescues.toolNameTag) reason = 'Tool-name tag removed: the toolNameTag rescue is off'
    if (reason !== undefined) this.#drop(reason, invoke.name)
    else this.#finishCall(region, invoke.name!, invoke.args, invoke.invalidJson)
    return this.#afterElement(region)
  }

  // ── outcomes ──────────────────────────────────────────────────────────

  /** Emits a complete call (or the reason it is not sent), with the held markup as its source. */
  #finishCall(region: Region, name: string, args: Record<string, unknown>, invalidJson: string[], invoke?: Invoke): void {
    const output = this.#output
    region.confirmed = true
    for (const parameter of invalidJson) {
      output.diagnose('invalid-json', '', `Parameter "${parameter}" of "${name}" is not JSON (or nests deeper than ${MAX_JSON_DEPTH}, or holds a number a double cannot hold); used as a string`, name)
    }
    if (this.documentation) {
      output.diagnose('dropped-markup', this.#held.take(), `Call to "${name}" removed, not run: it stood in inline code, whose closing backticks the markup right after it could join to others`, name)
      return
    }
    const verdict = this.#acceptance.verdict(name, args)
    if (CallStreaming.announced(invoke)) {
      // Streamed: the call ends as a call whatever is decided now, with why it would not have been made.
      const failure = verdict.kind === 'call' ? undefined : { kind: verdict.kind, message: verdict.message }
      return this.#streaming!.end(invoke!, verdict.kind === 'call' ? verdict.arguments : args, this.#held.take(), failure)
    }
    if (verdict.kind !== 'call') {
      output.diagnose(verdict.kind, this.#held.take(), verdict.message, name)
      return
    }
    const call: ToolCall = { id: this.#resolved.generateId(), name, arguments: verdict.arguments }
    output.push({ type: 'tool-call', call, source: this.#held.take() })
    output.push({ type: 'diagnostic', diagnostic: { kind: 'recovered-call', text: '', tool: name, message: `Recovered a call to "${name}"` } })
    output.noteRemoval()
  }

  /** Back to the enclosing block after an element, or out of the region. */
  #afterElement(region: Region): State {
    return region.inBlock ? block(region) : this.#endRegion()
  }

  #endRegion(): State {
    this.#output.noteRemoval()
    return OUTSIDE
  }

  #overflow(state: State): void {
    this.#output.diagnose('hold-limit', this.#held.take(), `Held DSML markup passed maxHoldChars (${this.#resolved.maxHoldChars}); removed and reported`)
    if (state.kind === 'parameter' || state.kind === 'orphan-parameter') {
      state.parameter.overflowed = true
      state.parameter.value.clear()
    }
    if (state.kind === 'parameter' || state.kind === 'invoke' || state.kind === 'wrapped-tool' || state.kind === 'tool-name-tag') {
      state.invoke.overflowed = true
      state.invoke.body = []
    }
  }

  #drop(message: string, tool?: string): void {
    if (this.#held.length > 0) this.#output.diagnose('dropped-markup', this.#held.take(), message, tool)
  }

  /** An invoke's markup removed; one streamed as it formed ends as streamed instead (it cannot be taken back). `cut`: by the end of the text. */
  #dropInvoke(invoke: Invoke, message: string, args: Record<string, unknown> = invoke.args, cut = false): void {
    if (CallStreaming.announced(invoke)) this.#streaming!.end(invoke, args, this.#held.take(), { kind: 'dropped-markup', message }, cut)
    else this.#drop(message, toolOf(invoke))
  }
}

/** An invoke named by the markup around its arguments. */
function impliedInvoke(name: string): Invoke {
  const invoke = newInvoke(name, true)
  invoke.implied = true
  return invoke
}
