/**
 * What a completed tag means where it stands, for the structure layer: its
 * name's kind, a special token or a fragment; the tool it names; whether it
 * carries a markerless candidate on; how its removal is described.
 */
import { isDriftedBlockName, isToolName, isToolNameElement, type TagKind } from './grammar.ts'
import type { State } from './states.ts'
import type { Tag } from './tag.ts'

/** What a tag is, where it stands: its name's kind, or a special token, or a fragment that lost its `<`. */
export type TagMeaning = TagKind | 'special' | 'fragment'

/**
 * `declared` says whether a name is a declared tool: a marked opener named
 * like a drifted block (`<‹DSML›tool_cals>`) is a block, unless it names a
 * declared tool (then it is a tag named after the tool) or the tool (an
 * element such as `<‹DSML›ToolName>`); a marked closer so named is a block closer.
 */
export function meaningOf(tag: Tag, declared: (name: string) => boolean): TagMeaning {
  if (tag.special) return 'special'
  if (tag.fragment) return 'fragment'
  const name = tag.kind === 'unknown' && tag.marker !== 'none' ? tag.name : ''
  if (isDriftedBlockName(name) && !isToolNameElement(name) && (tag.closing || !declared(name))) return 'block'
  return tag.kind
}


/** A tool-name element's text, when it is a usable tool name. */
export function toolNameOf(text: string): string | undefined {
  const name = text.trim()
  return isToolName(name) ? name : undefined
}

/** The name attribute, unless the tag was cut off inside it (then it names nothing). */
export function nameOf(tag: Tag): string | undefined {
  return tag.broken ? undefined : tag.nameAttribute
}

/** A markered tag that carries a markerless candidate on (and so confirms it as DSML). */
export function continuesCandidate(state: Exclude<State, { kind: 'outside' }>, tag: Tag, meaning: TagMeaning): boolean {
  if (tag.closing) return meaning === 'parameter' || meaning === 'invoke' || meaning === 'block' || meaning === 'empty'
  if (meaning === 'parameter') return true
  return meaning === 'invoke' && (state.kind === 'lone-block' || state.kind === 'block')
}

export function describeRemoval(tag: Tag, meaning: TagMeaning): string {
  if (meaning === 'special') return 'DeepSeek special token removed'
  if (meaning === 'fragment') return 'DSML marker fragment without "<" removed'
  if (tag.closing) return 'Stray DSML closer removed'
  return 'DSML tag outside any call removed'
}

/** A DSML tag named after a tool (`<‹DSML›execute_command>`): an opener under the word itself whose name means nothing else. */
export function isToolNameTag(tag: Tag, meaning: TagMeaning): boolean {
  return meaning === 'unknown' && tag.marker === 'dsml' && !tag.closing && !tag.broken && isToolName(tag.name)
}
