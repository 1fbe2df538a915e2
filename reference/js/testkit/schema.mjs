// The JS declarations (fields per op, validate.mjs) held against the Rust
// side's harness/protocol.schema.json, structurally: the same ops in the
// same order, the same fields, the same required-ness and the same JSON
// Schema for each field (type, limits, pattern, default). Descriptions are
// prose and left out.

import { HELLO } from '../engine.mjs';

/** { op: fields } of an engine's declarations, hello first as in the schema. */
export function declaredRequests(engine) {
  const out = { hello: HELLO.fields };
  for (const [op, { fields }] of engine.declarations) out[op] = fields;
  return out;
}

const canonical = (v) =>
  JSON.stringify(v, (_, x) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );

const show = (v) => (v === undefined ? 'absent' : canonical(v));

function fieldProblems(op, name, rust, js) {
  const problems = [];
  const rustSchema = { ...rust };
  delete rustSchema.description;
  for (const key of new Set([...Object.keys(rustSchema), ...Object.keys(js.schema)])) {
    if (canonical(rustSchema[key]) !== canonical(js.schema[key])) {
      problems.push(`${op}: field ${name}: ${key} is ${show(rustSchema[key])} in the Rust schema, ${show(js.schema[key])} in reference/js`);
    }
  }
  return problems;
}

function opProblems(op, def, fields) {
  const problems = [];
  const props = { ...def.properties };
  if (canonical(props.id) !== canonical({ type: 'integer' })) problems.push(`${op}: id is ${show(props.id)} in the Rust schema`);
  if (canonical(props.op) !== canonical({ const: op })) problems.push(`${op}: op is ${show(props.op)} in the Rust schema`);
  if (def.additionalProperties !== false) {
    problems.push(`${op}: the Rust schema allows fields it does not list; reference/js refuses them`);
  }
  delete props.id;
  delete props.op;
  const required = new Set(def.required ?? []);
  for (const must of ['id', 'op']) if (!required.has(must)) problems.push(`${op}: ${must} is not required in the Rust schema`);
  const rustNames = Object.keys(props);
  const jsNames = Object.keys(fields);
  for (const name of rustNames) {
    if (!jsNames.includes(name)) problems.push(`${op}: field ${name} is in the Rust schema, not declared in reference/js`);
  }
  for (const name of jsNames) {
    if (!rustNames.includes(name)) problems.push(`${op}: field ${name} is declared in reference/js, not in the Rust schema`);
  }
  const common = (names, other) => names.filter((n) => other.includes(n));
  if (common(rustNames, jsNames).join() !== common(jsNames, rustNames).join()) {
    problems.push(`${op}: fields in another order: Rust ${rustNames.join(', ')}; reference/js ${jsNames.join(', ')}`);
  }
  for (const name of common(jsNames, rustNames)) {
    if (required.has(name) !== fields[name].required) {
      const say = (r) => (r ? 'required' : 'optional');
      problems.push(`${op}: field ${name} is ${say(required.has(name))} in the Rust schema, ${say(fields[name].required)} in reference/js`);
    }
    problems.push(...fieldProblems(op, name, props[name], fields[name]));
  }
  return problems;
}

/**
 * Every difference between `requests` ({ op: fields }, see
 * declaredRequests) and the request definitions of `schema` (the parsed
 * protocol.schema.json), one readable line each naming op and field.
 */
export function schemaProblems(requests, schema) {
  const problems = [];
  const defs = schema.$defs ?? {};
  const rustOps = Object.keys(defs).filter((k) => k.startsWith('request:')).map((k) => k.slice('request:'.length));
  const jsOps = Object.keys(requests);
  for (const op of rustOps) if (!jsOps.includes(op)) problems.push(`${op}: in the Rust schema, not declared in reference/js`);
  for (const op of jsOps) if (!rustOps.includes(op)) problems.push(`${op}: declared in reference/js, not in the Rust schema`);
  const both = rustOps.filter((op) => jsOps.includes(op));
  const jsOrder = jsOps.filter((op) => rustOps.includes(op));
  if (both.join() !== jsOrder.join()) {
    problems.push(`ops in another order: Rust ${both.join(', ')}; reference/js ${jsOrder.join(', ')}`);
  }
  for (const op of both) problems.push(...opProblems(op, defs[`request:${op}`], requests[op]));
  return problems;
}
