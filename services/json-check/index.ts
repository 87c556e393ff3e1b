// json-check: validates JSON text (RFC 8259) and answers one line:
//   ok json type=<object|array|string|number|true|false|null> depth=<n> bytes=<n>
//   invalid json at <byte offset>: <reason>
// Built with AssemblyScript + @extism/as-pdk: npm run build:wasm
import { Host } from '@extism/as-pdk';

function abort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  unreachable();
}

const MAX_DEPTH = 512;

class P {
  pos: i32 = 0;
  depth: i32 = 0;
  maxDepth: i32 = 0;
  err: string = '';
  constructor(public b: Uint8Array) {}

  fail(why: string): bool {
    if (this.err.length == 0) this.err = why;
    return false;
  }
  ws(): void {
    while (this.pos < this.b.length) {
      const c = this.b[this.pos];
      if (c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d) this.pos++;
      else break;
    }
  }
  peek(): i32 {
    return this.pos < this.b.length ? <i32>this.b[this.pos] : -1;
  }
  lit(word: string): bool {
    for (let i = 0; i < word.length; i++) {
      if (this.peek() != word.charCodeAt(i)) return this.fail('bad literal');
      this.pos++;
    }
    return true;
  }
  str(): bool {
    this.pos++; // opening quote
    while (true) {
      const c = this.peek();
      if (c < 0) return this.fail('unterminated string');
      if (c == 0x22) {
        this.pos++;
        return true;
      }
      if (c < 0x20) return this.fail('control character in string');
      if (c == 0x5c) {
        this.pos++;
        const e = this.peek();
        if (e == 0x75) {
          this.pos++;
          for (let i = 0; i < 4; i++) {
            const h = this.peek();
            const hex = (h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66);
            if (!hex) return this.fail('bad \\u escape');
            this.pos++;
          }
          continue;
        }
        if (e == 0x22 || e == 0x5c || e == 0x2f || e == 0x62 || e == 0x66 || e == 0x6e || e == 0x72 || e == 0x74) {
          this.pos++;
          continue;
        }
        return this.fail('bad escape');
      }
      this.pos++;
    }
  }
  digits(): i32 {
    let n = 0;
    while (this.peek() >= 0x30 && this.peek() <= 0x39) {
      this.pos++;
      n++;
    }
    return n;
  }
  num(): bool {
    if (this.peek() == 0x2d) this.pos++;
    if (this.peek() == 0x30) this.pos++;
    else if (this.digits() == 0) return this.fail('bad number');
    if (this.peek() == 0x2e) {
      this.pos++;
      if (this.digits() == 0) return this.fail('bad fraction');
    }
    if (this.peek() == 0x65 || this.peek() == 0x45) {
      this.pos++;
      if (this.peek() == 0x2b || this.peek() == 0x2d) this.pos++;
      if (this.digits() == 0) return this.fail('bad exponent');
    }
    return true;
  }
  value(): bool {
    this.ws();
    const c = this.peek();
    if (c == 0x7b || c == 0x5b) {
      this.depth++;
      if (this.depth > this.maxDepth) this.maxDepth = this.depth;
      if (this.depth > MAX_DEPTH) return this.fail('nested too deep');
      const close = c == 0x7b ? 0x7d : 0x5d;
      this.pos++;
      this.ws();
      if (this.peek() == close) {
        this.pos++;
        this.depth--;
        return true;
      }
      while (true) {
        if (c == 0x7b) {
          this.ws();
          if (this.peek() != 0x22) return this.fail('expected a string key');
          if (!this.str()) return false;
          this.ws();
          if (this.peek() != 0x3a) return this.fail("expected ':'");
          this.pos++;
        }
        if (!this.value()) return false;
        this.ws();
        const d = this.peek();
        if (d == 0x2c) {
          this.pos++;
          continue;
        }
        if (d == close) {
          this.pos++;
          this.depth--;
          return true;
        }
        return this.fail(c == 0x7b ? "expected ',' or '}'" : "expected ',' or ']'");
      }
    }
    if (c == 0x22) return this.str();
    if (c == 0x74) return this.lit('true');
    if (c == 0x66) return this.lit('false');
    if (c == 0x6e) return this.lit('null');
    if (c == 0x2d || (c >= 0x30 && c <= 0x39)) return this.num();
    if (c < 0) return this.fail('unexpected end');
    return this.fail('unexpected character');
  }
}

function typeOf(b: Uint8Array): string {
  let i = 0;
  while (i < b.length && (b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0a || b[i] == 0x0d)) i++;
  const c = b[i];
  if (c == 0x7b) return 'object';
  if (c == 0x5b) return 'array';
  if (c == 0x22) return 'string';
  if (c == 0x74) return 'true';
  if (c == 0x66) return 'false';
  if (c == 0x6e) return 'null';
  return 'number';
}

export function run(): i32 {
  const b = Host.input();
  const p = new P(b);
  let ok = p.value();
  if (ok) {
    p.ws();
    if (p.pos != b.length) ok = p.fail('trailing characters');
  }
  if (ok) Host.outputString('ok json type=' + typeOf(b) + ' depth=' + p.maxDepth.toString() + ' bytes=' + b.length.toString());
  else Host.outputString('invalid json at ' + p.pos.toString() + ': ' + p.err);
  return 0;
}
