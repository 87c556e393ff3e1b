// text-diff: a line diff of two texts. Input: the old text, a line that is exactly `=====`, the new
// text. Output: a header `diff -<removed> +<added> =<same>`, then one line per line of the texts:
// `  ` unchanged, `- ` removed, `+ ` added (a longest common subsequence of lines).
//   too large: `invalid diff: <n> x <m> lines over 1000000 cells`; no separator: `invalid diff: no ===== line`
// Built with AssemblyScript + @extism/as-pdk: npm run build:wasm
import { Host } from '@extism/as-pdk';

function abort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  unreachable();
}

const MAX_CELLS: i64 = 1000000;

function splitLines(s: string): string[] {
  if (s.length == 0) return [];
  const out = s.split('\n');
  if (out.length > 0 && out[out.length - 1].length == 0) out.pop();
  return out;
}

export function run(): i32 {
  const text = Host.inputString();
  let sep = -1;
  let start = 0;
  if (text.startsWith('=====\n') || text == '=====') sep = 0;
  else {
    const at = text.indexOf('\n=====\n');
    if (at >= 0) {
      sep = at + 1;
      start = 0;
    } else if (text.endsWith('\n=====')) sep = text.length - 5;
  }
  if (sep < 0) {
    Host.outputString('invalid diff: no ===== line');
    return 0;
  }
  const a = splitLines(text.substring(start, sep));
  const rest = sep + 6 <= text.length ? text.substring(sep + 6) : '';
  const b = splitLines(rest);
  const n = a.length;
  const m = b.length;
  if (<i64>(n + 1) * <i64>(m + 1) > MAX_CELLS) {
    Host.outputString('invalid diff: ' + n.toString() + ' x ' + m.toString() + ' lines over ' + MAX_CELLS.toString() + ' cells');
    return 0;
  }
  // lcs[i][j]: length of the LCS of a[i..] and b[j..], row-major in one array.
  const w = m + 1;
  const lcs = new Int32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      if (a[i] == b[j]) lcs[i * w + j] = lcs[(i + 1) * w + j + 1] + 1;
      else {
        const x = lcs[(i + 1) * w + j];
        const y = lcs[i * w + j + 1];
        lcs[i * w + j] = x > y ? x : y;
      }
    }
  }
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  let del = 0;
  let add = 0;
  let same = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      lines.push('  ' + a[i]);
      i++;
      j++;
      same++;
    } else if (i < n && (j == m || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
      lines.push('- ' + a[i]);
      i++;
      del++;
    } else {
      lines.push('+ ' + b[j]);
      j++;
      add++;
    }
  }
  Host.outputString('diff -' + del.toString() + ' +' + add.toString() + ' =' + same.toString() + (lines.length ? '\n' + lines.join('\n') : ''));
  return 0;
}
