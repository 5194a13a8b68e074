/**
 * The named states of the structure layer (`structure.ts`), each with the
 * fields it needs. A *region* is one stretch of held markup: it begins at an
 * opener outside and ends when its markup is recovered, removed, or (for a
 * markerless candidate) released as text.
 */
import { TextBuilder } from '../text-builder.ts'
import type { CallStream } from './call-streaming.ts'
import type { Tag } from './tag.ts'

export interface Region {
  /** A DSML marker was seen in it: it is markup, removed unless recovered. False: a markerless candidate. */
  confirmed: boolean
  /** Characters consumed since the region began (resolved tags included): a candidate's eager-stop budget. */
  consumed: number
  /** Inside a block: an invoke that ends goes back to it, and its rejection rules differ. */
  inBlock: boolean
  /** The block opener's `name` attribute (`<tool_call name="X">{json}`), if it had one. */
  named: string | undefined
  /**
   * A candidate only a marked tag right after it can confirm: V4.1's block
   * opener that lost its marker (`< calls>`). Any other text or tag releases it.
   */
  needsMarker: boolean
  /** A drifted marker word was reported in this region (once per region). */
  driftReported: boolean
}

/** What an invoke (or a wrapped tool, or a tool-name tag) has collected. */
export interface Invoke {
  name: string | undefined
  /** The opener carried no marker. */
  markerless: boolean
  args: Record<string, unknown>
  argumentCount: number
  /** Complete parameters whose opener carried a marker. */
  markeredArgumentCount: number
  hasStringAttribute: boolean
  /** A rescue of `looseParameters` was needed. */
  loose: boolean
  /** Text between the tags (a raw JSON body, a tool-name tag's children, a special-token call's text after its separator). */
  body: string[]
  /** A special-token call's text before its separator (`function`, or the tool name); undefined before the separator. */
  header: string | undefined
  /** Parameters whose `string="false"` value was not JSON. */
  invalidJson: string[]
  /** Passed the markup cap: never a call. */
  overflowed: boolean
  /** Named by the markup around its arguments, not by an invoke opener: a block closer ends it too. */
  implied: boolean
  /** A parameter of it was cut short by an invoke or block tag: it never closed, so neither did the invoke. */
  cut: boolean
  /** A tool-name tag's text held something that is not elements (`closeBodyElement`, tool-name-body.ts). */
  bodyUnreadable: boolean
  /** The compact form's one unnamed argument (`<‹‹DSML››m>…`), named at the end by the declared schema. */
  unnamed: { value: unknown } | undefined
  /** `streamToolCalls`: the call as it is streamed (null: it is not; undefined: not decided yet). */
  stream: CallStream | null | undefined
}

export interface Parameter {
  /** Its `name` attribute, or (a field) its tag's name. */
  name: string | undefined
  /** A field of a tool-name tag, named by its own tag (`<‹DSML›command>…`): a closer of that name ends it too. */
  field: boolean
  /** The compact form's unnamed argument (`<‹‹DSML››m>`). */
  unnamed: boolean
  stringAttribute: string | undefined
  /** The opener carried no marker. */
  markerless: boolean
  /** The value read so far (the overflowed one's is dropped). */
  value: TextBuilder
  overflowed: boolean
}

export type State =
  /** Not in markup. */
  | { kind: 'outside' }
  /** After a block opener, nothing but text yet (the gap): the opener alone may be all there is. */
  | { kind: 'lone-block'; region: Region }
  /** Inside a block, between its elements. */
  | { kind: 'block'; region: Region }
  /** Inside an invoke, between its parameters. */
  | { kind: 'invoke'; region: Region; invoke: Invoke }
  /** Inside a wrapped tool (V26): an outer parameter that names the tool, holding the real parameters. */
  | { kind: 'wrapped-tool'; region: Region; invoke: Invoke }
  /** Inside a tag named after the tool (`<‹DSML›NAME>`), whose children are the arguments. */
  | { kind: 'tool-name-tag'; region: Region; invoke: Invoke }
  /** Inside a parameter value of an invoke or wrapped tool. */
  | { kind: 'parameter'; region: Region; invoke: Invoke; within: ArgumentsKind; parameter: Parameter }
  /** Inside a parameter that belongs to no invoke: a wrapped tool's outer parameter, or an orphan (V10). */
  | { kind: 'orphan-parameter'; region: Region; parameter: Parameter }
  /** Inside a block, in an element naming the tool of the arguments after it (`<‹DSML›ToolName>bash</‹DSML›ToolName>`). */
  | { kind: 'name-element'; region: Region; invoke: Invoke }
  /** Between the calls of a pre-DSML block (`‹tool▁calls▁begin›` … `‹tool▁calls▁end›`). */
  | { kind: 'special-calls'; region: Region }
  /** Inside one pre-DSML call (`‹tool▁call▁begin›` … `‹tool▁call▁end›`), its text split at `‹tool▁sep›`. */
  | { kind: 'special-call'; region: Region; invoke: Invoke }

export type StateKind = State['kind']

/** The states that collect a call's arguments; a parameter value goes back to one of them. */
export type ArgumentsKind = 'invoke' | 'wrapped-tool' | 'tool-name-tag'


/**
 * Every state is made here, with the same fields in the same order (the ones
 * a state does not use are undefined), so V8 gives all of them one hidden
 * class: reading `state.kind` stays a fast, single-shape load in every state.
 */
function state(kind: StateKind, region?: Region, invoke?: Invoke, parameter?: Parameter, within?: ArgumentsKind): State {
  return { kind, region, invoke, parameter, within } as State
}

export const OUTSIDE: State = state('outside')

export function loneBlock(region: Region): State {
  return state('lone-block', region)
}

export function block(region: Region): State {
  return state('block', region)
}

export function inInvoke(region: Region, invoke: Invoke): State {
  return state('invoke', region, invoke)
}

export function inWrappedTool(region: Region, invoke: Invoke): State {
  return state('wrapped-tool', region, invoke)
}

export function inToolNameTag(region: Region, invoke: Invoke): State {
  return state('tool-name-tag', region, invoke)
}

/** A parameter value of an invoke, a wrapped tool or a tool-name tag (`within`). */
export function inParameter(region: Region, invoke: Invoke, within: ArgumentsKind, parameter: Parameter): State {
  return state('parameter', region, invoke, parameter, within)
}

/** Back in the state a parameter value came from. */
export function inArguments(within: ArgumentsKind, region: Region, invoke: Invoke): State {
  return state(within, region, invoke)
}

export function inOrphanParameter(region: Region, parameter: Parameter): State {
  return state('orphan-parameter', region, undefined, parameter)
}

/** A tool-name element; its text is collected in `invoke.body`. */
export function inNameElement(region: Region): State {
  return state('name-element', region, newInvoke(undefined, false))
}

export function inSpecialCalls(region: Region): State {
  return state('special-calls', region)
}

export function inSpecialCall(region: Region, invoke: Invoke): State {
  return state('special-call', region, invoke)
}

export function newRegion(confirmed: boolean, inBlock: boolean, named?: string, needsMarker = false): Region {
  return { confirmed, consumed: 0, inBlock, named, needsMarker, driftReported: false }
}

export function newInvoke(name: string | undefined, markerless: boolean): Invoke {
  return {
    name,
    markerless,
    args: {},
    argumentCount: 0,
    markeredArgumentCount: 0,
    hasStringAttribute: false,
    loose: false,
    body: [],
    header: undefined,
    invalidJson: [],
    overflowed: false,
    implied: false,
    cut: false,
    bodyUnreadable: false,
    unnamed: undefined,
    stream: undefined,
  }
}

export function newParameter(tag: Tag): Parameter {
  const name = tag.nameAttribute
  return {
    name,
    field: false,
    unnamed: tag.compact && name === undefined,
    stringAttribute: tag.stringAttribute,
    markerless: tag.marker === 'none',
    value: new TextBuilder(),
    overflowed: false,
  }
}

/** A field of a tool-name tag (`<‹DSML›command>…`): a parameter named by its own tag. */
export function newField(tag: Tag): Parameter {
  return {
    name: tag.name,
    field: true,
    unnamed: false,
    stringAttribute: tag.stringAttribute,
    markerless: false,
    value: new TextBuilder(),
    overflowed: false,
  }
}
