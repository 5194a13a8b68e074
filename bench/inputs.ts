/**
 * Deterministic benchmark inputs. Every generator takes a target size in
 * UTF-16 code units and a seed; the same arguments always give the same text.
 *
 * DSML marker bytes are built here at run time (never written as literals).
 */
import { createSeededRandom } from '../src/seeded-random.ts'

const BAR = '\uFF5C'
/** The canonical marker: full-width bar, the word DSML, full-width bar. */
const MARKER = `${BAR}DSML${BAR}`

/** The seeded generator the replay upstream uses too (mulberry32). */
export const createRandom = createSeededRandom

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!
}

/** Common words, shared by every generated prose input. */
export const WORDS = (
  'the of and to in is that it for on with as was be by this are from at or an have not which but ' +
  'model stream token value result output request response server client buffer chunk parser engine ' +
  'function return error message system memory network latency before after during because however ' +
  'simple careful quickly often every small large first second final input markup text data users ' +
  'we they you should would could might will can must seems shows makes takes gives reads writes ' +
  'performance benchmark measure compare linear time space budget limit hold release recover report'
).split(' ')

const PUNCTUATION = [', ', ', ', '. ', '. ', '. ', '; ', ': ', '? ', '! ', ' — ']

/** Snippets that put a `<` into prose: comparisons and harmless HTML-like tags. */
const LESS_THAN_SNIPPETS = [
  'a < b',
  'x < 10',
  'if i < n',
  'when latency < 200 ms',
  '<br>',
  '<em>',
  '</em>',
  '<p>',
  '<div class="note">',
  '0 <= k',
  '<- here',
  'List<String>',
  '<T>',
  '<3',
]

/**
 * Prose: words and punctuation, with a `<`-snippet roughly every `lessThanEvery`
 * characters (uniformly 0.5–1.5 times that gap). No DSML, no bars, no backticks.
 */
export function prose(size: number, seed: number, lessThanEvery = 200): string {
  const random = createRandom(seed)
  const parts: string[] = []
  let length = 0
  let nextLessThan = lessThanEvery * (0.5 + random())
  let capital = true
  while (length < size) {
    let piece: string
    if (length >= nextLessThan) {
      piece = pick(random, LESS_THAN_SNIPPETS) + ' '
      nextLessThan = length + lessThanEvery * (0.5 + random())
    } else {
      let word = pick(random, WORDS)
      if (capital) word = word[0]!.toUpperCase() + word.slice(1)
      capital = false
      const roll = random()
      if (roll < 0.1) {
        const mark = pick(random, PUNCTUATION)
        piece = word + mark
        capital = mark === '. ' || mark === '? ' || mark === '! '
      } else if (roll < 0.12) {
        piece = word + '.\n\n'
        capital = true
      } else {
        piece = word + ' '
      }
    }
    parts.push(piece)
    length += piece.length
  }
  return parts.join('').slice(0, size)
}

/** Dense short text with a `<` every 5 characters (`ab c<` repeated, varied). */
export function lessThanDense(size: number, seed: number): string {
  const random = createRandom(seed)
  const filler = 'abcdefghijklmnopqrstuvwxyz      0123456789'
  const parts: string[] = []
  for (let length = 0; length < size; length += 5) {
    let unit = ''
    for (let index = 0; index < 4; index++) unit += filler[Math.floor(random() * filler.length)]
    parts.push(unit + '<')
  }
  return parts.join('').slice(0, size)
}

export interface Parameter {
  name: string
  value: string
  /** `string="true"` (raw text) or `string="false"` (JSON). */
  string: boolean
}

/** One canonical DSML block with one invoke. */
export function canonicalBlock(tool: string, parameters: readonly Parameter[]): string {
  const lines = [`<${MARKER}tool_calls>`, `<${MARKER}invoke name="${tool}">`]
  for (const { name, value, string } of parameters) {
    lines.push(`<${MARKER}parameter name="${name}" string="${string}">${value}</${MARKER}parameter>`)
  }
  lines.push(`</${MARKER}invoke>`, `</${MARKER}tool_calls>`)
  return lines.join('\n')
}

const COMMANDS = ['ls -la', 'git status', 'npm test', 'cat package.json', 'grep -rn TODO src', 'du -sh .']
const PATHS = ['src/index.ts', 'README.md', 'package.json', 'src/dsml/sanitizer.ts', 'docs/guide.md']
const QUERIES = ['streaming parser', 'node memory usage', 'utf-16 code units', 'linear time scan']

function randomCall(random: () => number): string {
  const roll = random()
  if (roll < 0.4) return canonicalBlock('bash', [{ name: 'command', value: pick(random, COMMANDS), string: true }])
  if (roll < 0.65) return canonicalBlock('read_file', [{ name: 'path', value: pick(random, PATHS), string: true }])
  if (roll < 0.85) {
    return canonicalBlock('search', [
      { name: 'query', value: pick(random, QUERIES), string: true },
      { name: 'limit', value: String(1 + Math.floor(random() * 50)), string: false },
    ])
  }
  return canonicalBlock('write_file', [
    { name: 'path', value: pick(random, PATHS), string: true },
    { name: 'content', value: `line ${Math.floor(random() * 1000)}\nif (a < b) return b > c\n`, string: true },
  ])
}

/** `blocks` canonical blocks, evenly spread through prose, about `size` characters in all. */
export function blockDense(size: number, blocks: number, seed: number): string {
  const random = createRandom(seed)
  const calls: string[] = []
  let markup = 0
  for (let index = 0; index < blocks; index++) {
    const call = randomCall(random)
    calls.push(call)
    markup += call.length
  }
  const gap = Math.max(1, Math.floor((size - markup) / (blocks + 1)))
  const parts: string[] = []
  for (let index = 0; index <= blocks; index++) {
    parts.push(prose(gap, seed + 1 + index))
    if (index < blocks) parts.push('\n', calls[index]!, '\n')
  }
  return parts.join('')
}

const CODE_LINES = [
  'for (let i = 0; i < items.length; i++) {',
  '  if (items[i].score > best.score && items[i].id !== skip) best = items[i]',
  '}',
  'const map = new Map<string, Array<number>>()',
  'return a < b ? -1 : a > b ? 1 : 0',
  'const view = <div className="row"><span>{label}</span></div>',
  'while (low <= high) { const mid = (low + high) >> 1; if (xs[mid] < x) low = mid + 1; else high = mid - 1 }',
  '// <-- shift left: value << 2, arrow => result',
  'if (flags & MASK || count >= limit) throw new RangeError(`too many: ${count}`)',
  'type Pair<K, V> = { key: K; value: V }',
  '',
]

/** Code-like text with `<` and `>`, about `size` characters. */
export function codeText(size: number, seed: number): string {
  const random = createRandom(seed)
  const parts: string[] = []
  let length = 0
  while (length < size) {
    const line = pick(random, CODE_LINES) + '\n'
    parts.push(line)
    length += line.length
  }
  return parts.join('').slice(0, size)
}

/** A short prose intro, one canonical block whose single parameter value is `valueSize` characters of code, a short outro. */
export function bigParameter(valueSize: number, seed: number): string {
  const value = codeText(valueSize, seed)
  const block = canonicalBlock('write_file', [{ name: 'content', value, string: true }])
  return `I will write the file now.\n\n${block}\n\nDone.`
}

/** One block whose parameter value is `&` and words, with no `;`: every `&` looks for an entity. */
export function ampersandParameter(valueSize: number): string {
  const value = 'a && b & '.repeat(Math.ceil(valueSize / 9)).slice(0, valueSize)
  const block = canonicalBlock('write_file', [{ name: 'content', value, string: true }])
  return `I will write the file now.\n\n${block}\n\nDone.`
}

// ── markup-dense text with no DSML in it ─────────────────────────────────

const TAGS = ['div', 'span', 'a', 'p', 'li', 'td', 'em', 'strong', 'code', 'section']
const ATTRIBUTES = ['class="row"', 'id="main"', 'href="/docs?page=2&amp;q=x"', 'data-id="42"', 'style="color: red"', 'title="Tip"']

/** HTML: nested elements with attributes, a few words between tags, about `size` characters. */
export function htmlText(size: number, seed: number): string {
  const random = createRandom(seed)
  const parts: string[] = []
  let length = 0
  while (length < size) {
    const tag = pick(random, TAGS)
    const inner = pick(random, TAGS)
    const attributes = random() < 0.6 ? ` ${pick(random, ATTRIBUTES)}` : ''
    const piece = `<${tag}${attributes}><${inner}>${pick(random, WORDS)} ${pick(random, WORDS)}</${inner}>${random() < 0.3 ? '<br/>' : ''}</${tag}>${random() < 0.2 ? '\n' : ''}`
    parts.push(piece)
    length += piece.length
  }
  return parts.join('').slice(0, size)
}

const TSX_LINES = [
  'const cache: Map<string, Array<Set<number>>> = new Map<string, Array<Set<number>>>()',
  'function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Pick<T, K> {',
  'export const List = <T,>({ items }: { items: T[] }) => <ul>{items.map((item) => <li key={String(item)}>{String(item)}</li>)}</ul>',
  'return <Button variant="primary" onClick={() => setCount(count + 1)} disabled={count < limit}>Add</Button>',
  'if (a < b && c > d) return Promise.resolve<Result<User, Error>>(ok(user))',
  'type Handler<E extends Event = Event> = (event: E) => void | Promise<void>',
  'const ref = useRef<HTMLDivElement | null>(null)',
  '<Card title={title}><Text size="sm">{description}</Text></Card>',
]

/** TypeScript and JSX: generics, comparisons and elements, about `size` characters. */
export function tsxText(size: number, seed: number): string {
  const random = createRandom(seed)
  const parts: string[] = []
  let length = 0
  while (length < size) {
    const line = pick(random, TSX_LINES) + '\n'
    parts.push(line)
    length += line.length
  }
  return parts.join('').slice(0, size)
}

/**
 * XML with the element names a markerless DSML tag would use, none of them a
 * call: `<param name=…>`, `<parameters>`, and self-closing `<invoke …/>`.
 */
export function xmlParameters(size: number, seed: number): string {
  const random = createRandom(seed)
  const parts: string[] = []
  let length = 0
  while (length < size) {
    const name = pick(random, WORDS)
    const piece =
      random() < 0.5
        ? `<parameters><param name="${name}">${Math.floor(random() * 100)}</param><value>${pick(random, WORDS)}</value></parameters>\n`
        : `<step><invoke name="${name}" target="${pick(random, WORDS)}"/><param name="retry">3</param></step>\n`
    parts.push(piece)
    length += piece.length
  }
  return parts.join('').slice(0, size)
}

/**
 * Issue 21's shapes, each spread through prose, about `size` characters:
 * blocks whose tags drifted (a drifted marker word, doubled slashes, a tool
 * name as the tag with fields, the compact `r=`/`m` form, an invoke missing
 * its closer) and V4.1 openers that lost their marker.
 */
export function driftDense(size: number, seed: number): string {
  const random = createRandom(seed)
  const doubled = `${BAR}${BAR}DSML${BAR}${BAR}`
  const calls = [
    (command: string) => `<${doubled} calls>\n<|EPSE|invoke name="bash">\n<|EPSE|parameter name="command" string="true">${command}</ / | DSML | | parameter>\n</|EPSE|invoke>\n</${doubled} calls>`,
    (command: string) => `<${MARKER}execute_command>\n<${MARKER}command>${command}</${MARKER}parameter>\n<timeout>600</timeout>\n</${MARKER}invoke>`,
    (command: string) => `<${doubled}r=execute_bash>\n<${doubled}m>${command}</${doubled}m>\n</${doubled}r>`,
    (command: string) => `< calls>\n<|DSML|invoke name="bash">\n<|DSML|parameter name="command"><![CDATA[${command}]]></|DSML|parameter>\n</|DSML|calls>`,
  ]
  const parts: string[] = []
  let length = 0
  while (length < size) {
    const part = `${prose(300, seed + parts.length)}\n${pick(random, calls)(pick(random, COMMANDS))}\n`
    parts.push(part)
    length += part.length
  }
  return parts.join('').slice(0, size)
}

/**
 * Text that starts tags and fragments the drift rules read further than
 * before, never completing one: full-width bars with spaces (CJK tables), a
 * bar and a space before a word, `</ /` and `<|word|` in prose, backtick runs
 * that never close before tags (every paragraph held at the code-span gate).
 */
export function driftLookAlikes(size: number, seed: number): string {
  const random = createRandom(seed)
  const snippets = [`${BAR} 名称 ${BAR} 价格 ${BAR}`, `${BAR}  ${BAR} x`, `\u2016 a \u2016`, 'a </ / b', '<|word|name>', '`` one < | two `', '`x` < ｜y', '<DSM|', '< calls are made']
  const parts: string[] = []
  let length = 0
  while (length < size) {
    const part = `${prose(60, seed + parts.length, 1000)} ${pick(random, snippets)}${random() < 0.1 ? '\n\n' : ' '}`
    parts.push(part)
    length += part.length
  }
  return parts.join('').slice(0, size)
}

/**
 * One tag named after a tool whose text is not elements, then many generic
 * closers: each closer must not read the whole text again (`Markup.closeBodyElement`).
 */
export function toolNameTagClosers(size: number): string {
  const closer = `<a>x </${MARKER}parameter>`
  return `<${MARKER}bash>junk ${closer.repeat(Math.max(1, Math.floor((size - 40) / closer.length)))}</${MARKER}bash>`
}

/** One long line of inline code spans each holding a DSML tag: every span is a code-span gate, and the line's only break is at the end. */
export function spansOnOneLine(size: number): string {
  const span = `\`<${MARKER}tool_calls>${'y'.repeat(300)}\` `
  return `${span.repeat(Math.max(1, Math.floor((size - 4) / span.length)))}\nend`
}

/**
 * One long line of backtick runs of 1 to 360 backticks, each before a DSML
 * block, again and again: a run of each length closes only a round later,
 * past the hold cap, so every gate reaches the cap; the runs it read answer
 * for the tags it held (`HeldRuns`), or each run inside would hold its own
 * gate to the cap again.
 */
export function runsPastTheCap(size: number): string {
  const block = `<${MARKER}tool_calls></${MARKER}tool_calls> `
  const parts: string[] = []
  let length = 0
  for (let run = 1; length < size; run = (run % 360) + 1) {
    const part = '`'.repeat(run) + block
    parts.push(part)
    length += part.length
  }
  return `${parts.join('')}\nend`
}

/** Prose of escaped backtick runs (`` \`` ``, each opening one backtick fewer than it would close), no DSML: the code spans' unmatched runs stay few. */
export function escapedRuns(size: number): string {
  const unit = 'see \\`` here '
  return unit.repeat(Math.max(1, Math.floor(size / unit.length)))
}

/** One paragraph running to the end of the text, a DSML block after each escaped run: the runs the first gate read answer for every later block. */
export function blocksToTheEnd(size: number): string {
  const unit = `\\\`\` <${MARKER}tool_calls></${MARKER}tool_calls> `
  return unit.repeat(Math.max(1, Math.floor(size / unit.length)))
}
