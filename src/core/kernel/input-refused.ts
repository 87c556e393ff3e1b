// An input a face could not read (an unknown query field, a malformed or mislabeled body). The face
// passes it to invoke instead of throwing at once, and the validate guard throws its error: so the
// auth guard decides first, and an operator route answers a wrong token before it judges the body.
import type { CxError } from './errors.js';

export class InputRefused {
  constructor(readonly err: CxError) {}
}
