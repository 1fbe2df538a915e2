// The page's own modules in node, without a browser: the German (amounts,
// messages), the URL fragment, the self-test's vector check. The page
// imports reference/js as ./js/ (the server maps /js/ there); a resolve hook
// does the same mapping here.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { describe, test } from 'node:test';
import { CURSOR, SHOE, cardFace } from '../../reference/js/cards.mjs';
import { checkProof } from '../../reference/js/proof.mjs';
import { execute } from '../../reference/js/provably.mjs';
import { stringifyJson } from '../../reference/js/json.mjs';

register(`data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('./js/') && context.parentURL && /\\/web\\/[^/]+\\.mjs$/.test(context.parentURL)) {
    return next(new URL('../reference/js/' + specifier.slice(5), context.parentURL).href, context);
  }
  return next(specifier, context);
}`)}`);

const german = await import('../german.mjs');
const fragment = await import('../fragment.mjs');
const selftest = await import('../selftest.mjs');
const games = await import('../games.mjs');
const panel = await import('../panel.mjs');
const stats = await import('../../reference/js/stats/index.mjs');
const names = await import('../names.mjs');
const { declarations } = await import('../../reference/js/provably.mjs');
const statsview = await import('../statsview.mjs');

const ENGLISH = /\b(must|got|above|below|limit|missing|field|minimum|maximum|strictly|between|invalid|error|exhausted|cannot|the|is not|answer|round|epoch)\b/i;
const FALLBACK = /ungültige Angabe\.$/;

describe('german.mjs', () => {
  test('amounts are read the German way', () => {
    const cases = [
      ['0,01 €', 0.01], ['1.000.000', 1000000], ['1 000 000', 1000000], ['1\u202f000 €', 1000], ['€ 5', 5], ['1.000,50', 1000.5],
      ['0.5', 0.5], ['750', 750], ['1,5 EUR', 1.5], ['abc', null], ['1 2', null], ['1.00.0', null],
    ];
    for (const [text, want] of cases) assert.equal(german.parseAmount(text), want, text);
  });

  test('a list of amounts splits at lines, ";", currency signs, ", " or spaces, never inside "0,01" or "1 000 000"', () => {
    assert.deepEqual(german.splitAmounts('0,01 €\n1 000 000 €\n5'), ['0,01 €', '1 000 000 €', '5']);
    assert.deepEqual(german.splitAmounts('0,01 €; 1 €; 1.000.000 €'), ['0,01 €', '1 €', '1.000.000 €']);
    assert.deepEqual(german.splitAmounts('0,01 € 1 € 1 000 000 €'), ['0,01 €', '1 €', '1 000 000 €']);
    assert.deepEqual(german.splitAmounts('€ 0,01 € 1 € 1.000'), ['€ 0,01', '€ 1', '€ 1.000']);
    assert.deepEqual(german.splitAmounts('0,01, 1, 5, 1.000'), ['0,01', '1', '5', '1.000']);
    assert.deepEqual(german.splitAmounts('1 5 10'), ['1', '5', '10']);
    assert.deepEqual(german.splitAmounts('  '), []);
  });

  test('numbers, amounts and plurals', () => {
    assert.equal(german.formatInt(9007199254740991n), '9.007.199.254.740.991');
    assert.equal(german.formatInt(-1234), '-1.234');
    assert.equal(german.formatAmount(0.01), '0,01');
    assert.equal(german.formatAmount(1000000), '1.000.000');
    assert.equal(german.formatAmount(2.5), '2,50');
    assert.equal(german.plural(1, 'Karte', 'Karten'), '1 Karte');
    assert.equal(german.plural(1000, 'Karte', 'Karten'), '1.000 Karten');
  });

  test('every error the engine gives for a bad request reads in German, naming the field in German', async () => {
    const bad = [
      { op: 'shoe.deal', serverSeed: 's', clientSeed: 'c', nonce: 1, decks: 9, penetration: 0.5 },
      { op: 'shoe.deal', serverSeed: 's', clientSeed: 'c', nonce: 1, decks: 6, penetration: 1.5 },
      { op: 'shoe.deal', serverSeed: 's', clientSeed: 'c', nonce: -1, decks: 6, penetration: 0.5 },
      { op: 'shoe.deal', serverSeed: 's', clientSeed: 'c', nonce: 'x', decks: 6, penetration: 0.5 },
      { op: 'shoe.deal', serverSeed: 's', clientSeed: 'c', nonce: 9007199254740992n, decks: 6, penetration: 0.5 },
      { op: 'shoe.deal', serverSeed: 's', clientSeed: 'c', nonce: 1, decks: 6, penetration: 'x' },
      { op: 'shoe.deal', serverSeed: 1, clientSeed: 'c', nonce: 1, decks: 6, penetration: 0.5 },
      { op: 'shoe.deal', serverSeed: '\ud800', clientSeed: 'c', nonce: 1, decks: 6, penetration: 0.5 },
      { op: 'shoe.deal', clientSeed: 'c', nonce: 1, decks: 6, penetration: 0.5 },
      { op: 'shoe.deal', serverSeed: 's', clientSeed: 'c', nonce: 1, decks: 6, penetration: 0.5, extra: 1 },
      { op: 'selfpoker.deck', seed: '-5' },
      { op: 'selfpoker.deck', seed: '9223372036854775808' },
      { op: 'selfpoker.deck', seed: 5 },
      { op: 'poker.deal', serverSeed: 's', clientSeed: 'c', nonce: 1, players: 30 },
      { op: 'poker.evaluate', cards: [1, 2, 3] },
      { op: 'poker.evaluate', cards: [1, 2, 3, 4, 4] },
      { op: 'poker.evaluate', cards: 'x' },
      { op: 'ladder.shuffle', serverSeed: 's', clientSeed: 'c', size: 0 },
      ...[
        { dealer: 12 }, { dealer: 1 }, { cards: [0] }, { cards: Array(22).fill(1) }, { cards: [52, 1] }, { canDouble: null },
        { cards: [0, 0, 0, 0, 0, 0, 0], canDouble: false }, { cards: [9, 17, 32], canDouble: false }, { cards: [1, 15, 29], canSplit: false },
        { cards: [3, 16, 27], canDouble: false, canSplit: true }, { cards: [1, 15], canSplit: true }, { surrender: false },
      ].map((x) => ({ op: 'blackjack.strategy', cards: [0, 13], dealer: 5, canDouble: true, canSplit: false, ...x })),
      { op: 'nope' },
      {},
    ];
    for (const request of bad) {
      const r = await execute(request);
      assert.ok(r.error, stringifyJson(request));
      const text = german.germanError(r.error.message);
      assert.doesNotMatch(text, FALLBACK, `${r.error.message} -> ${text}`);
      assert.doesNotMatch(text, ENGLISH, `${r.error.message} -> ${text}`);
    }
  });

  test('every invalid finding of the proof checker reads in German', async () => {
    const round = '{"op":"dice.roll","clientSeed":"c","n":0}';
    const T = 'ab'.repeat(32);
    const CHAIN = stringifyJson({ terminatingHash: T, link: 'text', salt: 's', variant: { op: 'crash.v2' } });
    const docs = [
      '{"proof":3,"epochs":[]}',
      '{"proof":1}',
      '{"proof":1,"epochs":{}}',
      '{"proof":1,"title":5,"epochs":[],"x":1}',
      '{"proof":1,"epochs":[[1]]}',
      '{"proof":1,"epochs":[{"serverSeed":"s","seed":"1","commit":"abc","rounds":[]}]}',
      '{"proof":1,"epochs":[{"commit":"' + 'a'.repeat(64) + '","rounds":[]}]}',
      '{"proof":1,"epochs":[{"serverSeed":"s","rounds":{}}]}',
      '{"proof":1,"epochs":[{"serverSeed":"s"}]}',
      '{"proof":1,"epochs":[{"serverSeed":"s","serverSeed":"t","rounds":[]}]}',
      `{"proof":1,"epochs":[{"serverSeed":"s","rounds":[[1], {"op":"cursor.hash"}, {"op":"x.y"}, {"op":3}, {}, {"op":"dice.roll","id":1}]}]}`,
      `{"proof":1,"epochs":[{"serverSeed":"s","rounds":[{"op":"dice.roll","clientSeed":"c","n":0,"serverSeed":"s"}, {"op":"selfpoker.deck"}]}]}`,
      `{"proof":1,"epochs":[{"rounds":[${round}]}]}`,
      `{"proof":1,"epochs":[{"seed":"1","rounds":[${round}]}]}`,
      `{"proof":1,"epochs":[{"serverSeed":"s","rounds":[{"op":"poker.evaluate","cards":[1,2,3,4,5],"seats":[]}, {"op":"dice.roll","n":0,"seats":{}}, {"op":"dice.roll","n":0,"seats":[1]}, {"op":"dice.roll","n":0,"seats":[{"player":1,"seed":"a","x":1}]}, {"op":"dice.roll","n":0,"seats":[{"seed":"a"}]}, {"op":"dice.roll","n":0,"seats":[{"player":1}]}, {"op":"dice.roll","n":0,"seats":[{"player":1.5,"seed":"a"}]}, {"op":"dice.roll","n":0,"seats":[{"player":1,"seed":2}]}, {"op":"dice.roll","n":0,"seats":[{"player":1,"seed":"a"},{"player":1,"seed":"b"}]}, {"op":"dice.roll","n":0,"clientSeed":"c","seats":[]}]}]}`,
      `{"proof":1,"epochs":[{"serverSeed":"s","rounds":[{"op":"dice.roll","clientSeed":"c","n":0,"external":""}, {"op":"dice.roll","clientSeed":"c","n":0,"external":1}, {"op":"dice.roll","clientSeed":"c","n":0,"observed":[]}, {"op":"dice.roll","clientSeed":"c","n":0,"observed":{"x":1}}, {"op":"dice.roll","clientSeed":"c","n":0,"observed":{"face":null}}, {"op":"dice.roll","clientSeed":"c","n":0,"observed":{"face":"x"}}, {"op":"shoe.deal","clientSeed":"c","nonce":0,"decks":1,"penetration":0.5,"observed":{"cards":["1X"]}}, {"op":"poker.evaluate","cards":[1,2,3,4,5],"observed":{"category":"x"}}, {"op":"cursor.float","clientSeed":"c","nonce":0,"cursor":0,"observed":{"float":2}}, {"op":"cursor.int","clientSeed":"c","nonce":0,"cursor":0,"range":2,"observed":{"cursorNext":0}}, {"op":"dice.roll","clientSeed":"c","n":0,"n":1}]}]}`,
      // Rounds blackjack.strategy refuses (its own rules, after the fields' limits), and a bad action.
      `{"proof":1,"epochs":[{"commit":null,"rounds":[${[
        '"cards":[9,17,32],"dealer":6,"canDouble":false,"canSplit":false', '"cards":[1,15,29],"dealer":3,"canDouble":true,"canSplit":false',
        '"cards":[3,16,27],"dealer":5,"canDouble":false,"canSplit":true', '"cards":[1,15],"dealer":5,"canDouble":true,"canSplit":true',
        '"cards":[0,0,0,0,0,0,0],"dealer":5,"canDouble":false,"canSplit":false', '"cards":[52,1],"dealer":5,"canDouble":false,"canSplit":false',
        '"cards":[1,2],"dealer":12,"canDouble":false,"canSplit":false', '"cards":[1,2],"dealer":5,"canDouble":false,"canSplit":false,"observed":{"action":"fold"}',
      ].map((r) => `{"op":"blackjack.strategy",${r}}`).join(',')}]}]}`,
      '{"proof": 1, "epochs": [',
      '{"a":1}\n[1]\n{"serverSeed":"s","rounds":[],"proof":1}',
      // Crash histories (docs/proofs.md): a chain that breaks each of its rules, games that break theirs.
      ...[5, { x: 1 }, {}, { terminatingHash: 'AB' }, { terminatingHash: T, link: 'hex' }, { terminatingHash: T, link: 'text', firstGame: -1, salt: 's', variant: { op: 'crash.v2' } },
        { terminatingHash: T, link: 'text', salt: 5, variant: { op: 'crash.v2' } }, { terminatingHash: T, link: 'text', salt: 's', variant: 1 },
        { terminatingHash: T, link: 'text', salt: 's', variant: { op: 'crash.link' } }, { terminatingHash: T, link: 'text', salt: 's', variant: { op: 'crash.v2', hash: T } },
        { terminatingHash: T, link: 'text', salt: 's', variant: { op: 'crash.v1', divisor: 22 } }, { terminatingHash: T, link: 'text', salt: 's', variant: { op: 'crash.v1', x: 1 } },
      ].map((chain) => `{"proof":2,"epochs":[{"chain":${stringifyJson(chain)},"rounds":[{"game":1}]}]}`),
      `{"proof":2,"epochs":[{"commit":"${T}","chain":${CHAIN},"rounds":[{"game":1,"nonce":1},{"hash":"${T}"},{"game":0},{"game":20000000},{"game":1,"hash":"${T.toUpperCase()}"},{"game":1,"observed":{"distance":1}},{"game":1.5},[1]]}]}`,
    ];
    let n = 0;
    for (const text of docs) {
      const { report } = await checkProof(text);
      for (const f of report.findings.filter((x) => x.kind === 'invalid')) {
        n++;
        const g = german.germanReason(f.field, f.reason);
        assert.doesNotMatch(g, FALLBACK, `${f.field}: ${f.reason} -> ${g}`);
        assert.doesNotMatch(g, ENGLISH, `${f.field}: ${f.reason} -> ${g}`);
      }
    }
    assert.ok(n >= 40, `${n} invalid findings translated`);
  });
});

describe('games.mjs: the basic strategy', () => {
  // vectors/blackjack.json: the Rust op's answers, held to the published TypeScript.
  const bundle = JSON.parse(readFileSync(new URL('../../vectors/blackjack.json', import.meta.url), 'utf8'));
  const valid = bundle.testGroups.flatMap((g) => g.tests).filter((t) => t.result === 'valid');
  const game = games.GAMES.find((g) => g.id === 'strategy');
  const flags = (input) => ({ canDouble: String(input.canDouble), canSplit: String(input.canSplit), doubleAfterSplit: String(input.doubleAfterSplit ?? true) });
  // The up-card the way players write it, in turn: a rank, a card, a count value.
  const upCard = (d, i) => (d === 11 ? ['A', 'A♥', '11'][i % 3] : d === 10 ? ['K', 'QS', '10', 'Bube'][i % 4] : [String(d), `${d}♣`][i % 2]);
  const buildAndCheck = async (values) => {
    const built = await game.build(values);
    const { report, epochs } = await checkProof(stringifyJson({ proof: 1, epochs: [built.epoch] }));
    return { built, report, round: epochs[0].rounds[0] };
  };

  test('every valid vector typed as cards gives its expected action, and that action typed back is a match', async () => {
    assert.ok(valid.length > 200, `${valid.length} valid vectors`);
    for (const [i, t] of valid.entries()) {
      const cards = t.input.cards.map((c, k) => ((i + k) % 4 === 3 ? String(c) : cardFace(CURSOR, c).text)).join(' ');
      const values = { cards, dealer: upCard(t.input.dealer, i), ...flags(t.input), observed: '' };
      const { report, round } = await buildAndCheck(values);
      assert.deepEqual(round.request.cards, t.input.cards, `tcId ${t.tcId}: ${cards}`);
      assert.equal(round.request.dealer, t.input.dealer, `tcId ${t.tcId}: ${values.dealer}`);
      assert.equal(report.verdict, 'unobserved', `tcId ${t.tcId}`);
      assert.equal(round.derived.action, t.expected.action, `tcId ${t.tcId} (${t.comment})`);
      const seen = await buildAndCheck({ ...values, observed: t.expected.action.toUpperCase() });
      assert.equal(seen.report.verdict, 'match', `tcId ${t.tcId}`);
    }
  });

  test('the table cell shown is in the chart the vector says decides', () => {
    // Flags from the Rust side: Soft or Hard for the chart that decides, Pair alone for a split;
    // SoftTwelve is a soft 12 played by the hard 12 row.
    const chart = (t) => (t.flags.includes('SoftTwelve') || t.flags.includes('Hard') ? 'Harte Hände' : t.flags.includes('Soft') ? 'Soft-Hände' : 'Paare');
    for (const t of valid) {
      const cell = panel.strategyCell(t.input, t.expected.action);
      const decided = cell.split('; dann ').at(-1);
      assert.ok(decided.startsWith(chart(t)), `tcId ${t.tcId} (${t.comment}, ${t.flags}): ${cell}`);
      assert.ok(cell.endsWith(`Spalte Dealer ${t.input.dealer === 11 ? 'A (11)' : t.input.dealer}`), `tcId ${t.tcId}: ${cell}`);
    }
  });

  test('another action is a mismatch; English and German words for an action are read', async () => {
    const t = valid.find((x) => x.expected.action === 'stehen');
    const values = { cards: t.input.cards.join(' '), dealer: String(t.input.dealer), ...flags(t.input) };
    assert.equal((await buildAndCheck({ ...values, observed: 'Hit' })).report.verdict, 'mismatch');
    for (const word of ['Stand', 'stehen bleiben', ' STEHEN ']) assert.equal((await buildAndCheck({ ...values, observed: word })).report.verdict, 'match', word);
  });

  test('bad input is an InputError naming the field, in German', async () => {
    const ok = { cards: 'AS 7H', dealer: '6', canDouble: 'true', canSplit: 'false', doubleAfterSplit: 'true', observed: '' };
    const cases = [
      [{ cards: '' }, 'cards', /Bitte deine Karten eintragen/],
      [{ cards: 'AS' }, 'cards', /mindestens zwei Karten/],
      [{ cards: 'A 7' }, 'cards', /„A“: bitte mit Farbe schreiben, z\. B\. „A♠“/],
      [{ cards: 'Dame 7H' }, 'cards', /„Q♠“ oder „QS“/],
      [{ cards: 'AS ?' }, 'cards', /jede Karte der Hand/],
      [{ cards: 'AS 1X' }, 'cards', /„1X“ ist keine Karte/],
      [{ cards: 'AS 52' }, 'cards', /„52“ ist keine Kartennummer/],
      [{ dealer: '' }, 'dealer', /offene Karte des Dealers/],
      [{ dealer: '12' }, 'dealer', /„12“ ist keine Dealerkarte/],
      [{ dealer: 'X' }, 'dealer', /keine Dealerkarte/],
      [{ observed: 'fold' }, 'observed', /„fold“ ist keine Aktion/],
    ];
    for (const [change, field, want] of cases) {
      await assert.rejects(game.build({ ...ok, ...change }), (e) => {
        assert.ok(e instanceof games.InputError, `${JSON.stringify(change)}: ${e}`);
        assert.equal(e.field, field, JSON.stringify(change));
        assert.match(e.message, want);
        assert.doesNotMatch(e.message, ENGLISH);
        return true;
      });
    }
  });

  test('a situation the op refuses is invalid at the form field it names, in German', async () => {
    const ok = { cards: '9S 7H', dealer: '6', canDouble: 'false', canSplit: 'false', doubleAfterSplit: 'true', observed: '' };
    const cases = [
      [{ cards: '9S 7H 8D' }, 'cards', /mehr als 21 \(hart 24\)/],
      [{ cards: '2S 3H 4D', canDouble: 'true' }, 'canDouble', /„Verdoppeln erlaubt“ ist gesetzt, die Hand hat aber 3 Karten/],
      [{ cards: '2S 3H', canSplit: 'true' }, 'canSplit', /kein Paar \(Zählwerte 2 und 3\)/],
    ];
    const fields = new Set([...game.fields, ...game.observe].map((f) => f.name));
    for (const [change, field, want] of cases) {
      const { report } = await buildAndCheck({ ...ok, ...change });
      const f = report.findings.find((x) => x.kind === 'invalid');
      assert.equal(f?.field, field, JSON.stringify(change));
      assert.ok(fields.has(f.field), `the form has a field ${f.field}`);
      const text = german.germanReason(f.field, f.reason);
      assert.match(text, want);
      assert.doesNotMatch(text, ENGLISH);
    }
  });
});

describe('fragment.mjs', () => {
  test('#proof= carries any UTF-8 text, padded or not, base64url or base64', () => {
    for (const text of ['{"proof":1}', 'Ölkanne 😀 ~?>', '']) {
      const hash = fragment.proofFragment(text);
      assert.match(hash, /^#proof=[A-Za-z0-9_-]*$/);
      assert.deepEqual(fragment.parseFragment(hash), { kind: 'proof', text });
    }
    const b64 = Buffer.from('Ölkanne?>', 'utf8').toString('base64');
    assert.equal(fragment.parseFragment(`proof=${b64}`).text, 'Ölkanne?>');
    assert.deepEqual(fragment.parseFragment('#proof=!!!'), { kind: 'proof', error: 'bad-base64' });
    assert.deepEqual(fragment.parseFragment(`#proof=${Buffer.from([0xff, 0xfe]).toString('base64url')}`), { kind: 'proof', error: 'bad-base64' });
    // Why a link does not decode: a cut link ends inside a character, a damaged one breaks before its end.
    const utf8 = (bytes) => fragment.readBase64url(Buffer.from(bytes).toString('base64url'));
    assert.deepEqual(utf8([0x7b, 0xc3]), { error: 'cut' });
    assert.deepEqual(utf8([0x7b, 0xff, 0x7d]), { error: 'utf8' });
    assert.deepEqual(utf8([0x7b, 0xc3, 0xa4]), { text: '{ä' });
    assert.deepEqual(fragment.readBase64url('a!b'), { error: 'base64' });
  });

  test('a round fragment keeps every value exactly: "+" is a plus, keys repeat, bad escapes are dropped', () => {
    const hash = fragment.roundFragment('shoe.deal', [['serverSeed', 'a+b c&d=e'], ['nonce', '3'], ['empty', ''], ['seat', '7:x'], ['seat', '2:y']]);
    assert.equal(hash, '#shoe.deal&serverSeed=a%2Bb%20c%26d%3De&nonce=3&seat=7%3Ax&seat=2%3Ay');
    const f = fragment.parseFragment(hash);
    assert.equal(f.op, 'shoe.deal');
    assert.deepEqual(f.params.get('serverSeed'), ['a+b c&d=e']);
    assert.deepEqual(f.params.get('seat'), ['7:x', '2:y']);
    assert.equal(fragment.parseFragment('#shoe.deal&serverSeed=a+b').params.get('serverSeed')[0], 'a+b');
    assert.equal(fragment.parseFragment('#shoe.deal&x=%E0%A4%A').params.has('x'), false);
    // ... but named, so the page says the link is damaged.
    assert.deepEqual(fragment.parseFragment('#shoe.deal&x=%E0%A4%A&y=1').damaged, ['x']);
    assert.deepEqual(fragment.parseFragment('#shoe.deal&y=1').damaged, []);
    assert.equal(fragment.parseFragment('#something'), null);
    assert.equal(fragment.parseFragment(''), null);
  });

  test('a proof or a page link pasted into a field is recognised; a seed is not', () => {
    assert.equal(fragment.recognisePasted(' {"proof": 1, "epochs": []}').kind, 'proof');
    assert.equal(fragment.recognisePasted('{"commit": null, "serverSeed": "s", "rounds": []}').kind, 'proof');
    // Checked as pasted, as the audit reads it: a form feed before it is no JSON white space.
    assert.equal(fragment.recognisePasted('\f{"proof": 1, "epochs": []}\n').text, '\f{"proof": 1, "epochs": []}\n');
    assert.equal(fragment.recognisePasted('https://example.org/pruefen#proof=e30').kind, 'link');
    assert.equal(fragment.recognisePasted('#dice.roll&n=1').kind, 'link');
    for (const seed of ['a3f1c9d4e5b6', '{not json', 'correct horse battery staple', 'https://example.org/#top']) {
      assert.equal(fragment.recognisePasted(seed), null, seed);
    }
  });
});

describe('selftest.mjs', () => {
  test('valid vectors pass when reproduced; invalid lines pass only when refused as invalid', async () => {
    const input = { op: 'dice.roll', serverSeed: 's', clientSeed: 'c', n: 0 };
    const face = (await execute(input)).ok.face;
    assert.equal(await selftest.checkVector({ input, expected: { face } }, execute), null);
    assert.notEqual(await selftest.checkVector({ input, expected: { face: (face % 6) + 1 } }, execute), null);
    for (const line of ['{"op":"dice.roll","serverSeed":"s","clientSeed":"c","n":0,"n":1}', '{"op":"dice.roll","serverSeed":"s","clientSeed":"c","n":1.0}', '[]', 'nope', '{"op":"dice.roll"}']) {
      assert.equal(await selftest.checkVector({ result: 'invalid', line }, execute), null, line);
    }
    const wrong = await selftest.checkVector({ result: 'invalid', line: JSON.stringify(input) }, execute);
    assert.match(wrong.diff, /Ergebnis statt Ablehnung/);
  });

  test('runVectors counts all and names the first failure in file order, however they finish', async () => {
    const input = { op: 'dice.roll', serverSeed: 's', clientSeed: 'c', n: 0 };
    const face = (await execute(input)).ok.face;
    const good = { input, expected: { face } };
    const bad = (tcId) => ({ tcId, input, expected: { face: (face % 6) + 1 } });
    const tests = [good, good, bad(3), good, bad(5), ...Array(40).fill(good)];
    const r = await selftest.runVectors(tests, execute, { concurrency: 7 });
    assert.deepEqual([r.passed, r.failed, r.first.t.tcId], [tests.length - 2, 2, 3]);
  });
});

const roundview = await import('../roundview.mjs');

describe('roundview.mjs and the checker\'s edges', () => {
  const vectors = JSON.parse(readFileSync(new URL('../../vectors/selftest.json', import.meta.url), 'utf8')).tests.filter((t) => t.input && t.expected);

  test('a shoe round is shown as the first deal: player cards 1 and 3, dealer 2 and 4, from the first card seen', () => {
    const t = vectors.find((x) => x.input.op === 'shoe.deal');
    const c = t.expected.cards.map((x) => cardFace(SHOE, x).text);
    const r = { op: 'shoe.deal', derived: t.expected, observed: { cards: [null, null, ...t.expected.cards.slice(2, 8)] } };
    assert.equal(roundview.roundShown(r), `Erste Hand (ab Karte 3): Spieler ${c[2]} ${c[4]} · Dealer ${c[3]}, verdeckt ${c[5]}`);
  });

  test('the poker winner: a straight flush beats four of a kind; equal hands split the pot', () => {
    const card = (rank, suit) => CURSOR.card(rank, suit);
    const board = [card(10, 3), card(11, 3), card(12, 3), card(9, 0), card(9, 1)];
    const won = roundview.showdown([[card(9, 2), card(9, 3)], [card(13, 3), card(14, 3)]], board);
    assert.deepEqual(won.seats, [2]);
    assert.equal(won.hand.category, 'straight_flush');
    const split = roundview.showdown([[card(2, 0), card(3, 1)], [card(2, 1), card(3, 0)]], board);
    assert.deepEqual(split.seats, [1, 2]);
  });

  test('a hand is named as a player says it: the pair and its kickers, not "Paar (2 A K 10)"', () => {
    const card = (rank, suit) => CURSOR.card(rank, suit);
    const words = (...cards) => roundview.rateHand(cards);
    assert.equal(words(card(2, 0), card(2, 1), card(14, 2), card(13, 3), card(10, 0)).text, 'Ein Paar Zweien, dazu A K 10');
    assert.equal(words(card(2, 0), card(2, 1), card(14, 2), card(13, 3), card(10, 0)).withText, 'einem Paar Zweien, dazu A K 10');
    assert.equal(words(card(14, 0), card(12, 1), card(10, 2), card(9, 3), card(6, 0)).withText, 'der höchsten Karte A, dazu Q 10 9 6');
    assert.equal(words(card(13, 0), card(13, 1), card(2, 2), card(2, 3), card(14, 0)).text, 'Zwei Paare, Könige und Zweien, dazu A');
    assert.equal(words(card(6, 0), card(7, 1), card(8, 2), card(9, 3), card(10, 0)).text, 'Eine Straße bis zur Zehn');
    assert.equal(words(card(13, 0), card(13, 1), card(13, 2), card(2, 3), card(2, 0)).text, 'Ein Full House, drei Könige und zwei Zweien');
    assert.equal(words(card(10, 3), card(11, 3), card(12, 3), card(13, 3), card(14, 3)).text, 'Ein Royal Flush');
    assert.equal(words(card(11, 0), card(11, 1), card(11, 2), card(4, 3), card(9, 0)).text, 'Ein Drilling Buben, dazu 9 4');
  });

  test('facts count from 1 or use the operator\'s own numbers, never developer words', () => {
    const facts = roundview.roundFacts({ request: { n: 0, nonce: 3, cursor: 5, hand: 0, range: 10000 } });
    assert.equal(facts, 'Nonce 3 · Hand 1 · Wurfnummer 0 · Zahlen 0 bis 9.999');
    assert.doesNotMatch(facts, /Cursor|n =/);
  });

  test('regression: a byte order mark before {"proof" reads as a document, text and bytes alike', async () => {
    const input = { op: 'dice.roll', serverSeed: 's', clientSeed: 'c', n: 0 };
    const face = (await execute(input)).ok.face;
    const doc = JSON.stringify({ proof: 1, epochs: [{ commit: null, serverSeed: 's', rounds: [{ op: 'dice.roll', clientSeed: 'c', n: 0, observed: { face } }] }] });
    for (const given of [`\uFEFF${doc}`, new TextEncoder().encode(`\uFEFF${doc}`)]) {
      const r = await checkProof(given);
      assert.equal(r.format, 'document');
      assert.equal(r.report.verdict, 'match');
      assert.equal(r.report.rounds, 1);
    }
  });

  test('checkProof reports round progress and stops when its signal is aborted', async () => {
    const rounds = Array.from({ length: 60 }, (_, n) => ({ op: 'dice.roll', clientSeed: 'c', n }));
    const doc = JSON.stringify({ proof: 1, epochs: [{ commit: null, serverSeed: 's', rounds }] });
    const seen = [];
    await checkProof(doc, { onProgress: (done, total, info) => seen.push(info) });
    assert.deepEqual(seen.at(-1), { rounds: 60, roundsTotal: 60 });
    const abort = new AbortController();
    await assert.rejects(checkProof(doc, { signal: abort.signal, onProgress: () => abort.abort() }), (e) => e.name === 'CheckCancelled');
  });

  test('a link\'s length is known without encoding; a page link is recognised in a box', () => {
    for (const t of ['', 'a', 'ab', 'abc', 'äöü€', '{"proof": 1}']) assert.equal(fragment.encodedLength(t), fragment.encodeBase64url(t).length, t);
    assert.deepEqual(fragment.recognisePasted('http://127.0.0.1:8000/#proof=eyJ9'), { kind: 'link', hash: '#proof=eyJ9' });
    assert.equal(fragment.proofValue('#proof=abc'), 'abc');
    assert.equal(fragment.proofValue('#dice.roll&n=1'), null);
  });

  test('the players\' guide on the page says what docs/spieler.md says', () => {
    const md = readFileSync(new URL('../../docs/spieler.md', import.meta.url), 'utf8');
    const html = readFileSync(new URL('../spieler.html', import.meta.url), 'utf8');
    const words = (t) => t.replace(/\s+/g, ' ').trim();
    const fromMd = words(md.replace(/^#+ /gm, '').replace(/^- |^\d+\. /gm, '').replace(/\*\*/g, ''));
    const body = html.slice(html.indexOf('<main'), html.indexOf('<p><a href="/">'));
    const fromHtml = words(body.replace(/<\/?strong>/g, '').replace(/<[^>]+>/g, ' ').replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&'));
    assert.equal(fromHtml, fromMd);
  });
});

/**
 * Every family the declarations can make: each op with tables, one integer
 * field at a time over a few values within its limits (the others at 2 or
 * their minimum), a fraction at 0.75: every configuration a layout depends on.
 */
function declaredFamilies() {
  const keys = new Map();
  for (const [op, d] of declarations) {
    const model = d.stats.tables;
    if (!model) continue;
    const ints = Object.entries(d.fields).filter(([, f]) => f.schema.type === 'integer');
    // A field limited to listed values (stake.wheel's segments) takes each of them.
    const within = ([, f], v) => (f.schema.enum ? f.schema.enum.includes(v) : v >= f.schema.minimum && v <= f.schema.maximum);
    const first = (f) => (f.schema.enum ? f.schema.enum[0] : Math.max(f.schema.minimum, Math.min(2, f.schema.maximum)));
    const base = Object.fromEntries(Object.entries(d.fields).map(([name, f]) => [name,
      f.schema.type === 'integer' ? first(f) : f.schema.type === 'number' ? 0.75 : 'x']));
    const requests = [{ op, ...base }];
    for (const field of ints) {
      const limits = field[1].schema.enum ?? [field[1].schema.minimum, field[1].schema.maximum];
      for (const v of [...limits, 3, 4, 8, 16, 24, 25, 50].filter((x) => within(field, x))) requests.push({ op, ...base, [field[0]]: v });
    }
    for (const req of requests) {
      const key = stats.keyOf(req);
      if (key) keys.set(key.id, { op, a: key.a, b: key.b });
    }
  }
  return [...keys.values()];
}

describe('statsview.mjs: the statistics in a player\'s German', () => {
  const serial = ['serial pairs along nonces', 'runs: up, equal, down along nonces', 'serial correlation along nonces'];

  test('every test of every family the declarations make is named in German, counted from 1, each name once', () => {
    const families = declaredFamilies();
    const ops = new Set(families.map((k) => k.op));
    for (const [op, d] of declarations) if (d.stats.tables) assert.ok(ops.has(op), `${op}: a family to name`);
    assert.ok(families.length > ops.size, 'ops with parameters have several families');
    for (const key of families) {
      const { label, tests, serial: follows } = stats.layout(key);
      const named = [...tests.map(([n]) => n), ...(follows ? serial : [])].map((n) => statsview.testText(label, n));
      for (const n of named) {
        assert.doesNotMatch(n, ENGLISH, `${label}: ${n}`);
        assert.doesNotMatch(n, /\b(at|of|position|case|seat|card|value|rank|suit|face|serial|draw|pick|cells?|bucket|edges|pooled|pocket|segment|gem|winner|multiplier|point|roll|float|nonces?)\b/, `${label}: ${n}`);
      }
      assert.equal(new Set(named).size, named.length, `${label}: every test its own name`);
      assert.doesNotMatch(statsview.familyText(label), /=|[a-z]\.[a-z]|\b(decks|size|players|range|rows|segments|mines|count)\b/, label);
    }
    assert.equal(statsview.testText('dice.roll', 'face of die n=0'), 'Augenzahl bei Wurf Nummer 0');
    assert.equal(statsview.testText('shoe.deal decks=6 penetration=0.75', 'rank at position 0'), 'Kartenwert der 1. Karte');
    assert.equal(statsview.testText('ladder.shuffle size=25', 'entry in case 0'), 'Leiterplatz in Koffer 1');
    assert.equal(statsview.testText('cursor.shuffle count=4', 'value at position 0'), 'Eintrag an Stelle 1');
    assert.equal(statsview.testText('selfpoker.deck', 'value at position 0'), 'Kartenwert der 1. Karte im Deck');
    assert.equal(statsview.familyText('shoe.deal decks=6 penetration=0.75'), 'Blackjack, freie Runde (6 Decks, Schnitt bei 75 %)');
    assert.equal(statsview.familyText('stake.plinko rows=16'), 'Stake Plinko (16 Reihen)');
    assert.equal(statsview.familyText('stake.mines mines=1'), 'Stake Mines (1 Mine)');
    assert.equal(statsview.testText('stake.keno', 'pick at draw 0 (of 40)'), '1. Keno-Zug (eines von 40 freien Feldern)');
    assert.equal(statsview.testText('stake.baccarat', 'suit at position 5'), 'Farbe der 6. Karte');
    assert.equal(statsview.testText('stake.dice', 'serial pairs along nonces'), 'Paare aufeinanderfolgender Wetten');
    assert.equal(statsview.testText('dice.roll', 'serial pairs along nonces'), 'Paare aufeinanderfolgender Würfe');
  });

  test('p-values and the level in German numbers', () => {
    const cases = [[0.39, '0,39'], [0.0046, '0,0046'], [1.4e-34, '1,4 · 10⁻³⁴'], [9.492725158075711e-94, '9,5 · 10⁻⁹⁴'], [0, '0'], [1, '1']];
    for (const [p, want] of cases) assert.equal(statsview.formatP(p), want, String(p));
    assert.equal(statsview.levelText(1e-3), '1 von 1.000');
    assert.equal(statsview.levelText(0.05), '1 von 20');
  });

  test('one sentence per state: no alarm, the alarm and that it proves no cheating, too few rounds', () => {
    const test = (rejected, pValue) => ({ family: 'dice.roll', name: 'face of die n=0', pValue, rejected, threshold: 1e-4 });
    const of = (tests, rounds = 1000) => ({ level: 1e-3, rounds, untested: 0, notRun: 0, tests });
    const clean = statsview.meaningOf(of([test(false, 0.3)]));
    assert.equal(clean.state, 'clean');
    assert.match(clean.sentence, /^Nichts deutet darauf hin, dass die Server-Seeds nach ihrem Ergebnis ausgesucht wurden/);
    const alarm = statsview.meaningOf(of([test(false, 0.3), test(true, 1e-9)]));
    assert.equal(alarm.state, 'alarm');
    assert.match(alarm.sentence, /„Augenzahl bei Wurf Nummer 0“.*kein Beweis für Betrug\.$/);
    const few = statsview.meaningOf(of([], 40));
    assert.equal(few.state, 'few');
    assert.match(few.sentence, /^Zu wenige Runden für die Statistik: Mit 40 Runden kann sie noch nichts erkennen/);
    assert.equal(statsview.meaningOf(of([], 0)).state, 'none');
    const untested = statsview.meaningOf({ ...of([], 0), untested: 3 });
    assert.match(untested.sentence, /^Für diese 3 Runden hat die Statistik keinen Test/);
    for (const m of [clean, alarm, few]) for (const t of [m.sentence, m.caveat]) assert.doesNotMatch(t, ENGLISH, t);
  });
});
