import { aql, literal, type AqlQuery } from 'arangojs/aql';
import { fail, type Ops } from './ops.js';

/**
 * openCypher's operators in AQL, each taking operands already bound to variables (so a
 * rule may name an operand several times) and returning its result's variable. AQL's own
 * operators mean something else in the places listed below, and each is compiled to the
 * evaluator's meaning (cypher/expressions.ts, values.ts), the difference written where it
 * is handled:
 * - null: AQL's `null == null` is true and `null < 1` is true (null sorts first); in
 *   openCypher any comparison with null is null, and so is AND/OR/NOT of null unless the
 *   other side decides. Every operator below checks for null first.
 * - strings: AQL compares strings with an ICU collation (`'B' < 'a'` is false, and code
 *   points ICU ignores, U+0000 among them, make different strings equal). openCypher, and
 *   the evaluator, compare UTF-16 code units. Strings are compared as `TO_HEX` of their
 *   UTF-8 bytes: hexadecimal digits collate in code order under every collation, and UTF-8
 *   byte order is code-point order. It differs from code-unit order only between a
 *   character U+E000–U+FFFF and one past U+FFFF (which code units put first); that pair is
 *   the one difference left, and it is the oracle's too (oracle.int.test.ts).
 * - types: AQL orders and compares values of different types (`1 < 'a'`); openCypher's
 *   comparison of different types is null.
 * - lists: AQL's `==` on lists is true for `[1, null] == [1, null]`; openCypher compares
 *   element by element with the null rules (null there). Lists and maps are compared to
 *   three levels deep; deeper nesting is refused (unsupported_cypher) rather than compared
 *   by AQL's rules.
 * - numbers: AQL has one number type, as JavaScript; an integer divides as an integer when
 *   neither operand is a float by its form (expressions.ts isFloat), as in the evaluator.
 *   AQL has no infinity or NaN (a float division by zero is null there): where openCypher
 *   would make one, the query is refused (unsupported_cypher) instead of answering null.
 */

const NESTING = 3;

/** `v` is a node: a node document carries `_id` and no `_from`. Caller maps cannot carry `_id` (expression.ts refuses them). */
export function isNode(v: AqlQuery): AqlQuery {
  return aql`(IS_OBJECT(${v}) AND HAS(${v}, "_id") AND NOT HAS(${v}, "_from"))`;
}

/** `v` is a relationship: an edge document carries `_from`. */
export function isRel(v: AqlQuery): AqlQuery {
  return aql`(IS_OBJECT(${v}) AND HAS(${v}, "_from"))`;
}

/** A condition's value: true, false or null; anything else is an error, as `truth()` in the evaluator. */
export function truth(ops: Ops, v: AqlQuery): AqlQuery {
  return ops.let(
    aql`((${v} == null OR IS_BOOL(${v})) ? ${v} : ${fail('invalid', 'A condition must be true, false or null.')})`,
  );
}

export function not(ops: Ops, v: AqlQuery): AqlQuery {
  const t = truth(ops, v);
  return ops.let(aql`(${t} == null ? null : NOT ${t})`);
}

/** AND, OR, XOR in three-valued logic: AQL's `null AND false` is null (falsy), openCypher's is false. */
export function logic(ops: Ops, op: 'and' | 'or' | 'xor', left: AqlQuery, right: AqlQuery): AqlQuery {
  const l = truth(ops, left);
  const r = truth(ops, right);
  if (op === 'and')
    return ops.let(aql`((${l} == false OR ${r} == false) ? false : ((${l} == null OR ${r} == null) ? null : true))`);
  if (op === 'or')
    return ops.let(aql`((${l} == true OR ${r} == true) ? true : ((${l} == null OR ${r} == null) ? null : false))`);
  return ops.let(aql`((${l} == null OR ${r} == null) ? null : (${l} != ${r}))`);
}

/**
 * `l = r`. When either side is known to be a scalar (a literal, a parameter's value, a
 * property the schema types as one), a list or map on the other side is simply unequal and
 * the short form serves; otherwise lists and maps are compared element by element.
 */
export function equals(ops: Ops, l: AqlQuery, r: AqlQuery, scalar: boolean, depth = NESTING): AqlQuery {
  const scalarEq = aql`((IS_STRING(${l}) AND IS_STRING(${r})) ? (TO_HEX(${l}) == TO_HEX(${r})) : (${l} == ${r}))`;
  if (scalar) return ops.let(aql`((${l} == null OR ${r} == null) ? null : ${scalarEq})`);
  const lists = listEquals(ops, l, r, depth);
  const objects = objectEquals(ops, l, r, depth);
  return ops.let(aql`((${l} == null OR ${r} == null) ? null
    : (IS_ARRAY(${l}) AND IS_ARRAY(${r})) ? ${lists}
    : (IS_OBJECT(${l}) AND IS_OBJECT(${r})) ? ${objects}
    : ${scalarEq})`);
}

/**
 * Element-wise equality of two lists: false as soon as a pair is unequal, else null when a
 * pair is null, else true. The subquery runs whatever the operands are (AQL computes
 * subqueries before the expression that holds them), so it iterates only when both are
 * lists of one length, and every rule inside checks its own operands.
 */
function listEquals(ops: Ops, l: AqlQuery, r: AqlQuery, depth: number): AqlQuery {
  if (depth === 0) return fail('unsupported', 'comparing lists or maps nested more than three deep');
  const body = ops.child();
  const i = body.names.fresh('i');
  const a = body.let(aql`${l}[${i}]`);
  const b = body.let(aql`${r}[${i}]`);
  const e = equals(body, a, b, false, depth - 1);
  const pairs = ops.let(aql`(
    FOR ${i} IN ((IS_ARRAY(${l}) AND IS_ARRAY(${r}) AND LENGTH(${l}) == LENGTH(${r}) AND LENGTH(${l}) > 0) ? 0..(LENGTH(${l}) - 1) : [])
    ${body.toQuery()}
    RETURN ${e})`);
  return aql`(LENGTH(${l}) != LENGTH(${r}) ? false : (false IN ${pairs} ? false : (null IN ${pairs} ? null : true)))`;
}

/**
 * Two nodes (or relationships) are equal when they are the same document (`_id`); a node
 * and a map never are. Two maps are equal when they have the same keys (compared by code
 * unit, as strings are) and equal values, in three-valued logic as lists are.
 */
function objectEquals(ops: Ops, l: AqlQuery, r: AqlQuery, depth: number): AqlQuery {
  if (depth === 0) return fail('unsupported', 'comparing lists or maps nested more than three deep');
  const keysL = aql`SORTED(ATTRIBUTES(${l})[* RETURN TO_HEX(CURRENT)])`;
  const keysR = aql`SORTED(ATTRIBUTES(${r})[* RETURN TO_HEX(CURRENT)])`;
  const body = ops.child();
  const k = body.names.fresh('k');
  const a = body.let(aql`${l}[${k}]`);
  const b = body.let(aql`${r}[${k}]`);
  const e = equals(body, a, b, false, depth - 1);
  const sameKeys = ops.let(aql`(IS_OBJECT(${l}) AND IS_OBJECT(${r}) AND ${keysL} == ${keysR})`);
  const pairs = ops.let(aql`(
    FOR ${k} IN ((${sameKeys} AND NOT HAS(${l}, "_id") AND NOT HAS(${r}, "_id")) ? ATTRIBUTES(${l}) : [])
    ${body.toQuery()}
    RETURN ${e})`);
  return aql`((HAS(${l}, "_id") OR HAS(${r}, "_id")) ? (${l}._id == ${r}._id)
    : (NOT ${sameKeys} ? false : (false IN ${pairs} ? false : (null IN ${pairs} ? null : true))))`;
}

const COMPARE = { '<': literal('<'), '>': literal('>'), '<=': literal('<='), '>=': literal('>=') } as const;

/**
 * The sign of comparing two scalars by openCypher's rules, null when they are not
 * comparable (different types, a null); `nested` is what a pair of lists gives.
 */
function sign(l: AqlQuery, r: AqlQuery, nested: AqlQuery): AqlQuery {
  const s = (a: AqlQuery, b: AqlQuery) => aql`(${a} < ${b} ? -1 : (${a} > ${b} ? 1 : 0))`;
  return aql`((${l} == null OR ${r} == null) ? null
    : (IS_NUMBER(${l}) AND IS_NUMBER(${r})) ? ${s(l, r)}
    : (IS_STRING(${l}) AND IS_STRING(${r})) ? ${s(aql`TO_HEX(${l})`, aql`TO_HEX(${r})`)}
    : (IS_BOOL(${l}) AND IS_BOOL(${r})) ? ${s(l, r)}
    : (IS_ARRAY(${l}) AND IS_ARRAY(${r})) ? ${nested}
    : null)`;
}

/** `<`, `>`, `<=`, `>=`: lists compare element by element (the first pair that is not equal decides, then length). */
export function compare(ops: Ops, op: keyof typeof COMPARE, l: AqlQuery, r: AqlQuery): AqlQuery {
  const body = ops.child();
  const i = body.names.fresh('i');
  const a = body.let(aql`${l}[${i}]`);
  const b = body.let(aql`${r}[${i}]`);
  const c = body.let(sign(a, b, fail('unsupported', 'ordering comparisons of lists of lists')));
  const first = ops.let(aql`FIRST(
    FOR ${i} IN ((IS_ARRAY(${l}) AND IS_ARRAY(${r}) AND MIN([LENGTH(${l}), LENGTH(${r})]) > 0) ? 0..(MIN([LENGTH(${l}), LENGTH(${r})]) - 1) : [])
    ${body.toQuery()}
    FILTER ${c} != 0
    LIMIT 1
    RETURN [${c}])`);
  const lists = aql`(${first} != null ? ${first}[0] : (LENGTH(${l}) < LENGTH(${r}) ? -1 : (LENGTH(${l}) > LENGTH(${r}) ? 1 : 0)))`;
  const s = ops.let(sign(l, r, lists));
  return ops.let(aql`(${s} == null ? null : (${s} ${COMPARE[op]} 0))`);
}

/** Whole numbers, as Number.isInteger. */
function isInt(v: AqlQuery): AqlQuery {
  return aql`(IS_NUMBER(${v}) AND ${v} == FLOOR(${v}))`;
}

/** Truncation toward zero (Math.trunc), which AQL lacks. */
export function trunc(v: AqlQuery): AqlQuery {
  return aql`(${v} >= 0 ? FLOOR(${v}) : CEIL(${v}))`;
}

const NOT_FINITE = 'a number result with no finite value (an infinity or NaN), which ArangoDB cannot hold';

/**
 * Arithmetic as the evaluator's `arithmetic`: `+` also joins lists and concatenates
 * strings (numbers written as JavaScript writes them, which AQL's CONCAT does the same way
 * for the numbers a graph holds); `/` divides integers as integers unless `float`; a result
 * AQL cannot hold (it makes infinities null) refuses the query.
 */
export function arithmetic(
  ops: Ops,
  op: '+' | '-' | '*' | '/' | '%' | '^',
  l: AqlQuery,
  r: AqlQuery,
  float: boolean,
): AqlQuery {
  const invalid = fail('invalid', `Cannot apply ${op} to these values.`);
  const numbers = aql`(IS_NUMBER(${l}) AND IS_NUMBER(${r}))`;
  let result: AqlQuery;
  switch (op) {
    case '+': {
      const sum = ops.let(aql`(${numbers} ? (${l} + ${r}) : null)`);
      result = aql`(IS_ARRAY(${l}) ? (IS_ARRAY(${r}) ? APPEND(${l}, ${r}) : PUSH(${l}, ${r}))
        : IS_ARRAY(${r}) ? UNSHIFT(${r}, ${l})
        : (IS_STRING(${l}) OR IS_STRING(${r})) ? ((IS_OBJECT(${l}) OR IS_OBJECT(${r})) ? ${invalid} : CONCAT(${l}, ${r}))
        : ${numbers} ? (${sum} == null ? ${fail('unsupported', NOT_FINITE)} : ${sum})
        : ${invalid})`;
      break;
    }
    case '-':
    case '*': {
      const v = ops.let(aql`(${numbers} ? (${l} ${literal(op)} ${r}) : null)`);
      result = aql`(${numbers} ? (${v} == null ? ${fail('unsupported', NOT_FINITE)} : ${v}) : ${invalid})`;
      break;
    }
    case '/': {
      // AQL's `/` is always a float division, and null for a zero divisor.
      const ints = float ? aql`false` : aql`(${isInt(l)} AND ${isInt(r)})`;
      result = aql`(NOT ${numbers} ? ${invalid}
        : ${ints} ? (${r} == 0 ? ${fail('invalid', 'Division by zero.')} : ${trunc(aql`(${l} / ${r})`)})
        : ${r} == 0 ? ${fail('unsupported', NOT_FINITE)}
        : (${l} / ${r}))`;
      break;
    }
    case '%':
      // JavaScript's % keeps the dividend's sign, as AQL's does; by zero it is NaN, which AQL makes null.
      result = aql`(NOT ${numbers} ? ${invalid} : ${r} == 0 ? ${fail('unsupported', NOT_FINITE)} : (${l} % ${r}))`;
      break;
    case '^': {
      const v = ops.let(aql`(${numbers} ? POW(${l}, ${r}) : null)`);
      result = aql`(NOT ${numbers} ? ${invalid} : ${v} == null ? ${fail('unsupported', NOT_FINITE)} : ${v})`;
      break;
    }
  }
  return ops.let(aql`((${l} == null OR ${r} == null) ? null : ${result})`);
}

/** Unary minus: a number's negation, null for anything else (the evaluator's rule, not an error). */
export function negate(ops: Ops, v: AqlQuery): AqlQuery {
  return ops.let(aql`(IS_NUMBER(${v}) ? -${v} : null)`);
}

/**
 * STARTS WITH, ENDS WITH, CONTAINS on two strings (null otherwise), by code units: prefix
 * and suffix on the hexadecimal UTF-8 (whole bytes, so whole characters), CONTAINS by
 * AQL's byte search; an empty string is in every string (AQL's CONTAINS says otherwise).
 */
export function stringTest(ops: Ops, op: 'starts' | 'ends' | 'contains', l: AqlQuery, r: AqlQuery): AqlQuery {
  const test =
    op === 'starts'
      ? aql`STARTS_WITH(TO_HEX(${l}), TO_HEX(${r}))`
      : op === 'ends'
        ? aql`(LENGTH(TO_HEX(${r})) <= LENGTH(TO_HEX(${l})) AND SUBSTRING(TO_HEX(${l}), LENGTH(TO_HEX(${l})) - LENGTH(TO_HEX(${r}))) == TO_HEX(${r}))`
        : aql`(LENGTH(${r}) == 0 OR CONTAINS(${l}, ${r}))`;
  return ops.let(aql`((IS_STRING(${l}) AND IS_STRING(${r})) ? ${test} : null)`);
}

/** `x IN list`: true when an item equals x, else null when an item compares null, else false. */
export function inList(ops: Ops, l: AqlQuery, list: AqlQuery, scalar: boolean): AqlQuery {
  const body = ops.child();
  const item = body.names.fresh('x');
  const e = equals(body, l, aql`${item}`, scalar);
  const found = ops.let(aql`(FOR ${item} IN (IS_ARRAY(${list}) ? ${list} : []) ${body.toQuery()} RETURN ${e})`);
  return ops.let(aql`(${list} == null ? null
    : NOT IS_ARRAY(${list}) ? ${fail('invalid', 'The right side of IN must be a list.')}
    : (true IN ${found} ? true : (null IN ${found} ? null : false)))`);
}

/**
 * A key whose AQL order is ORDER BY's order (values.ts orderCompare): by type (maps,
 * nodes, relationships, lists, strings, booleans, numbers, then null), then by value:
 * strings by code unit, nodes by slug, lists element by element; maps and relationships
 * tie. AQL's own order puts null first and types the other way round.
 */
export function orderKey(v: AqlQuery, depth = 2): AqlQuery {
  const list =
    depth === 0
      ? fail('unsupported', 'ORDER BY or min()/max() over lists nested more than two deep')
      : aql`${v}[* RETURN ${orderKey(aql`CURRENT`, depth - 1)}]`;
  return aql`(${v} == null ? [7, null]
    : IS_NUMBER(${v}) ? [6, ${v}]
    : IS_BOOL(${v}) ? [5, ${v}]
    : IS_STRING(${v}) ? [4, TO_HEX(${v})]
    : IS_ARRAY(${v}) ? [3, ${list}]
    : HAS(${v}, "_from") ? [2, null]
    : HAS(${v}, "_id") ? [1, TO_HEX(${v}.slug)]
    : [0, null])`;
}
