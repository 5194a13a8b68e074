// Repair stored assistant text: remove leaked DSML, recover the calls it held.
// Run: npx tsx examples/sanitize-stored-text.ts
import { sanitizeText } from 'dsml-streams'

// Marker bytes are built at run time, never written literally: ‹DSML› = U+FF5C "DSML" U+FF5C.
const m = '\uFF5CDSML\uFF5C'
const stored = [
  'Let me look at the config first.\n\n',
  `<${m}tool_calls>\n<${m}invoke name="read">\n`,
  `<${m}parameter name="path" string="true">/etc/app/config.toml</${m}parameter>\n`,
  `</${m}invoke>\n</${m}tool_calls>`,
].join('')

const { text, calls, diagnostics } = sanitizeText(stored, { knownTools: ['read', 'write'] })
console.log('text:', JSON.stringify(text))
for (const call of calls) console.log('call:', call.name, JSON.stringify(call.arguments))
for (const diagnostic of diagnostics) console.log('diagnostic:', diagnostic.kind, diagnostic.message)
