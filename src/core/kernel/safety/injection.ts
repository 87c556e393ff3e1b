// The injection lexicon: phrases that try to steer a model reading the text (instructions aimed at
// an assistant, role markers, chat template tokens). Imported text that will reach agents (search
// demand, for now) is dropped on any hit. Patterns are case-insensitive and tolerate spacing.

export interface InjectionHit {
  term: string;
  offset: number;
}

const TERMS: ReadonlyArray<[term: string, re: RegExp]> = [
  [
    'ignore-instructions',
    /\b(ignore|disregard|forget|override|bypass)\s+(all\s+|any\s+|the\s+|your\s+|previous\s+|prior\s+|above\s+|earlier\s+)*(instructions|prompts?|rules|guidelines|directions|context)\b/i,
  ],
  ['new-instructions', /\b(new|updated|real|actual|following)\s+(system\s+)?instructions\b/i],
  ['system-prompt', /\bsystem\s*prompt\b/i],
  ['role-switch', /\byou\s+are\s+(now|no\s+longer)\b/i],
  ['act-as', /\b(act|behave|respond)\s+as\s+(an?\s+)?(unrestricted|unfiltered|jailbroken|dan|evil|developer)\b/i],
  ['jailbreak', /\b(jailbreak|jail\s*break|do\s+anything\s+now|developer\s+mode|god\s+mode)\b/i],
  ['role-marker', /(^|\n|\s)(system|assistant|user|developer)\s*:/i],
  ['template-token', /<\|[a-z_]+\|>|\[\/?(inst|sys)\]|<<\/?sys>>|<\/?(system|assistant|instructions?)>/i],
  ['tool-call', /\b(call|invoke|execute|run)\s+(the\s+)?(tool|function|command)\b/i],
  ['exfiltrate', /\b(reveal|print|show|leak|send|exfiltrate)\s+(your|the)\s+(system\s+prompt|instructions|secrets?|api\s+keys?|tokens?|credentials)\b/i],
  ['prompt-injection', /\bprompt\s+injection\b/i],
];

/**
 * The published lexicon of injection families (/inj/about, /hazards.txt): the names above with what
 * they catch, plus families an agent can recognise but a phrase list cannot (hidden text, encoded
 * instructions). Reports to the injection map (src/core/inj) are flagged with these names only.
 */
export const INJECTION_FAMILIES: ReadonlyArray<{ name: string; what: string }> = [
  { name: 'ignore-instructions', what: 'tells the reader to ignore, disregard or override its instructions or rules' },
  { name: 'new-instructions', what: 'announces new, updated or "real" (system) instructions' },
  { name: 'system-prompt', what: 'talks about or imitates a system prompt' },
  { name: 'role-switch', what: '"you are now ..." / "you are no longer ..." identity changes' },
  { name: 'act-as', what: 'asks the model to act as an unrestricted, jailbroken or developer persona' },
  { name: 'jailbreak', what: 'jailbreak vocabulary: DAN, do anything now, developer or god mode' },
  { name: 'role-marker', what: 'chat role markers (system:, assistant:, user:, developer:) inside content' },
  { name: 'template-token', what: 'chat-template tokens (<|im_start|>, [INST], <<SYS>>, <system>)' },
  { name: 'tool-call', what: 'asks the reader to call a tool, function or command' },
  { name: 'exfiltrate', what: 'asks to reveal or send the system prompt, secrets, keys, tokens or credentials' },
  { name: 'prompt-injection', what: 'names prompt injection itself (a test page or a payload announcing itself)' },
  { name: 'hidden-text', what: 'instructions hidden from human readers: invisible Unicode, white-on-white, HTML comments, alt text' },
  { name: 'encoded', what: 'instructions encoded (base64, hex, rot13, homoglyphs) for the model to decode' },
];

export const isInjectionFamily = (s: string): boolean => INJECTION_FAMILIES.some((f) => f.name === s);

/** The first lexicon hit in `text`, or null. */
export function injectionFind(text: string): InjectionHit | null {
  for (const [term, re] of TERMS) {
    const m = re.exec(text);
    if (m) return { term, offset: m.index };
  }
  return null;
}
