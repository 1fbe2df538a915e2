// What every game's form reader shares (games.mjs, stake.mjs): the typed
// tokens of a field and the error that names the field it is about.

const TOKEN_SPLIT = /[\s,;]+/u;
export const tokens = (text) => (text ?? '').split(TOKEN_SPLIT).filter(Boolean);

/** Bad input in a game's form, in German, for the field `field`. */
export class InputError extends Error {
  constructor(message, field) {
    super(message);
    this.field = field;
  }
}
