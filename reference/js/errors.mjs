/**
 * An error the protocol reports back: `kind` is one of `unsupported`,
 * `invalid`, `exhausted` (docs/protocol.md), `message` says what to fix.
 */
export class ProvablyError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = 'ProvablyError';
    this.kind = kind;
  }
}
