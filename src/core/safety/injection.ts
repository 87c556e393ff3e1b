// The injection lexicon: phrases that try to steer a model reading the text (instructions aimed at
// an assistant, role markers, chat template tokens). Imported text that will reach agents (search
// demand, for now) is dropped on any hit. Patterns are case-insensitive and tolerate spacing.

export interface InjectionHit {
  term: string;
  offset: number;
}

const TERMS: ReadonlyArray<[term: string, re: RegExp]> = [
  ['ignore-instructions', /\b(ignore|disregard|forget|override|bypass)\s+(all\s+|any\s+|the\s+|your\s+|previous\s+|prior\s+|above\s+|earlier\s+)*(instructions|prompts?|rules|guidelines|directions|context)\b/i],
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

/** The first lexicon hit in `text`, or null. */
export function injectionFind(text: string): InjectionHit | null {
  for (const [term, re] of TERMS) {
    const m = re.exec(text);
    if (m) return { term, offset: m.index };
  }
  return null;
}
