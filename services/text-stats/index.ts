// text-stats: counts of a UTF-8 text, one line:
//   stats lines=<n> words=<n> chars=<n> bytes=<n> longest=<chars of the longest line> blank=<blank lines>
// Words are runs of characters other than space, tab, CR and LF. Chars are Unicode code points.
// Built with AssemblyScript + @extism/as-pdk: npm run build:wasm
import { Host } from '@extism/as-pdk';

function abort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  unreachable();
}

export function run(): i32 {
  const b = Host.input();
  let lines = 0;
  let words = 0;
  let chars = 0;
  let longest = 0;
  let blank = 0;
  let cur = 0;
  let inWord = false;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    // A code point starts at every byte that is not a UTF-8 continuation byte.
    if ((c & 0xc0) != 0x80) chars++;
    if (c == 0x0a) {
      lines++;
      if (cur == 0) blank++;
      if (cur > longest) longest = cur;
      cur = 0;
      inWord = false;
      continue;
    }
    if (c == 0x0d) continue;
    if ((c & 0xc0) != 0x80) cur++;
    const space = c == 0x20 || c == 0x09;
    if (space) inWord = false;
    else if (!inWord) {
      inWord = true;
      words++;
    }
  }
  if (cur > 0) {
    lines++;
    if (cur > longest) longest = cur;
  }
  Host.outputString('stats lines=' + lines.toString() + ' words=' + words.toString() + ' chars=' + chars.toString() + ' bytes=' + b.length.toString() + ' longest=' + longest.toString() + ' blank=' + blank.toString());
  return 0;
}
