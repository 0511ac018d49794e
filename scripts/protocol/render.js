// Turns one Kafka message spec into TypeScript, following Kafka's MessageDataGenerator (read, write, defaults,
// tagged fields, ignorable checks) and FieldSpec (defaults, non-default checks). See generate.js.
const { MAX_VERSION, parseVersions, intersect, versionCondition } = require('./versions');

const PRIMITIVES = new Set(['bool', 'int8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'float64', 'uuid', 'string', 'bytes', 'records']);
const FIXED_TS_TYPES = { bool: 'boolean', int8: 'number', int16: 'number', uint16: 'number', int32: 'number', uint32: 'number', int64: 'bigint', float64: 'number', uuid: 'string', string: 'string', bytes: 'Uint8Array', records: 'Uint8Array' };
const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';

function lowerFirst(name) {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

function parseType(text) {
  if (text.startsWith('[]')) {
    return { kind: 'array', element: parseType(text.slice(2)) };
  }
  return PRIMITIVES.has(text) ? { kind: text } : { kind: 'struct', name: text };
}

/** Kafka's Versions.subtract for the shapes specs use: the versions of a field that are not tagged. */
function subtract(versions, tagged) {
  if (versions === null || tagged === null) {
    return versions;
  }
  const overlap = intersect(versions, tagged);
  if (overlap === null) {
    return versions;
  }
  if (overlap.lo <= versions.lo && overlap.hi >= versions.hi) {
    return null;
  }
  if (overlap.hi >= versions.hi) {
    return { lo: versions.lo, hi: overlap.lo - 1 };
  }
  if (overlap.lo <= versions.lo) {
    return { lo: overlap.hi + 1, hi: versions.hi };
  }
  throw new Error(`tagged versions ${JSON.stringify(tagged)} split the versions ${JSON.stringify(versions)}`);
}

/** The spec without its prose, as committed in specs.json for the tests. */
function stripProse(value) {
  if (Array.isArray(value)) {
    return value.map(stripProse);
  }
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key !== 'about' && key !== 'entityType' && key !== 'listeners') {
        out[key] = stripProse(inner);
      }
    }
    return out;
  }
  return value;
}

/** Parses a spec into structs and fields with version ranges resolved. */
function normalizeSpec(spec) {
  const where = spec.name;
  const validVersions = parseVersions(spec.validVersions, where);
  const flexibleVersions = parseVersions(spec.flexibleVersions, where);
  const structs = new Map();
  const normalizeFields = (fields, owner) => (fields ?? []).map((field) => {
    const what = `${where}.${owner}.${field.name}`;
    const type = parseType(field.type);
    const versions = parseVersions(field.versions, what);
    const element = type.kind === 'array' ? type.element : type;
    if (element.kind === 'struct' && field.fields !== undefined) {
      defineStruct(element.name, versions, field.fields);
    }
    return {
      name: field.name,
      camel: lowerFirst(field.name),
      about: field.about,
      type,
      versions,
      nullableVersions: parseVersions(field.nullableVersions, what),
      taggedVersions: parseVersions(field.taggedVersions, what),
      tag: field.tag,
      // FieldSpec: a missing or JSON-null default is the type's own default (""), not null.
      defaultText: field.default === undefined || field.default === null ? '' : String(field.default),
      ignorable: field.ignorable === true,
      flexibleVersions: field.flexibleVersions === undefined ? undefined : parseVersions(field.flexibleVersions, what),
    };
  });
  function defineStruct(name, versions, fields) {
    if (structs.has(name)) {
      throw new Error(`${where}: struct ${name} is defined twice`);
    }
    const struct = { name, versions, fields: [] };
    structs.set(name, struct);
    struct.fields = normalizeFields(fields, name);
  }
  for (const common of spec.commonStructs ?? []) {
    defineStruct(common.name, parseVersions(common.versions, `${where}.${common.name}`), common.fields);
  }
  const top = { name: `${spec.name}Data`, versions: validVersions, fields: normalizeFields(spec.fields, spec.name), top: true };
  return {
    name: spec.name,
    type: spec.type,
    apiKey: spec.apiKey,
    validVersions,
    flexibleVersions,
    latestVersionUnstable: spec.latestVersionUnstable === true,
    structs: [...structs.values()],
    top,
    raw: stripProse(spec),
  };
}

/** Emits indented lines. */
class Code {
  constructor() {
    this.lines = [];
    this.depth = 0;
  }
  line(text = '') {
    this.lines.push(text === '' ? '' : `${'  '.repeat(this.depth)}${text}`);
  }
  open(text) {
    this.line(text);
    this.depth++;
  }
  close(text = '}') {
    this.depth--;
    this.line(text);
  }
  text() {
    return this.lines.join('\n');
  }
}

function hasNull(field) {
  return field.nullableVersions !== null || field.defaultText === 'null' || field.type.kind === 'records';
}

function baseTsType(type) {
  if (type.kind === 'array') {
    return `${baseTsType(type.element)}[]`;
  }
  return type.kind === 'struct' ? type.name : FIXED_TS_TYPES[type.kind];
}

function tsType(field) {
  return `${baseTsType(field.type)}${hasNull(field) ? ' | null' : ''}`;
}

function integerDefault(field, min, max) {
  const text = field.defaultText;
  if (text === '') {
    return 0n;
  }
  const value = text.startsWith('0x') ? BigInt(text) : text.startsWith('-0x') ? -BigInt(text.slice(1)) : BigInt(text);
  if (value < min || value > max) {
    throw new Error(`field ${field.name}: default ${text} is out of range`);
  }
  return value;
}

const INTEGER_RANGES = {
  int8: [-(2n ** 7n), 2n ** 7n - 1n], int16: [-(2n ** 15n), 2n ** 15n - 1n], uint16: [0n, 2n ** 16n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n], uint32: [0n, 2n ** 32n - 1n], int64: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** The default value as a TypeScript expression (FieldSpec.fieldDefault). */
function defaultExpression(field) {
  const kind = field.type.kind;
  const text = field.defaultText;
  if (kind === 'bool') {
    if (text !== '' && !/^(true|false)$/i.test(text)) {
      throw new Error(`field ${field.name}: bad boolean default ${text}`);
    }
    return text.toLowerCase() === 'true' ? 'true' : 'false';
  }
  if (INTEGER_RANGES[kind] !== undefined) {
    const value = integerDefault(field, ...INTEGER_RANGES[kind]);
    return kind === 'int64' ? `${value}n` : String(value);
  }
  if (kind === 'float64') {
    return text === '' ? '0' : String(Number(text));
  }
  if (kind === 'uuid') {
    return JSON.stringify(text === '' ? ZERO_UUID : text);
  }
  if (text === 'null') {
    return 'null';
  }
  if (kind === 'string') {
    return JSON.stringify(text);
  }
  if (kind === 'records') {
    return 'null';
  }
  if (text !== '') {
    throw new Error(`field ${field.name}: a ${kind} field can only default to empty or null`);
  }
  if (kind === 'bytes') {
    return 'new Uint8Array(0)';
  }
  if (kind === 'struct') {
    return `default${field.type.name}()`;
  }
  return '[]';
}

/** FieldSpec.generateNonDefaultValueCheck: a condition that holds when `x` is not the field's default. */
function nonDefaultCondition(field, x, nullable) {
  const kind = field.type.kind;
  const def = defaultExpression(field);
  if (kind === 'array' || kind === 'bytes' || kind === 'records') {
    if (def === 'null') {
      return `${x} !== null`;
    }
    return nullable ? `(${x} === null || ${x}.length !== 0)` : `${x}.length !== 0`;
  }
  if (kind === 'string' || kind === 'struct' || kind === 'uuid') {
    if (def === 'null') {
      return `${x} !== null`;
    }
    const differs = kind === 'struct' ? `!rt.deepEqual(${x}, ${def})` : `${x} !== ${def}`;
    return nullable ? `(${x} === null || ${differs})` : differs;
  }
  return `${x} !== ${def}`;
}

class StructRenderer {
  constructor(message, struct) {
    this.message = message;
    this.struct = struct;
    // The versions in which this struct's code can run.
    this.context = struct.top ? message.validVersions : (intersect(struct.versions, message.validVersions) ?? struct.versions);
    this.flexibleCondition = versionCondition(message.flexibleVersions, this.context);
  }

  label(field) {
    return JSON.stringify(`${this.struct.name}.${field.camel}`);
  }

  fieldFlexible(field) {
    if (field.flexibleVersions === undefined) {
      return 'fv';
    }
    const condition = versionCondition(field.flexibleVersions, this.context);
    return condition === 'true' || condition === 'false' ? condition : `(${condition})`;
  }

  nullableCondition(field, tagged) {
    const versions = tagged ? intersect(field.taggedVersions, field.versions) : subtract(field.versions, field.taggedVersions);
    return versionCondition(intersect(field.nullableVersions, versions), intersect(versions, this.context) ?? this.context);
  }

  /** An expression reading one value of `type` from reader `r`. */
  readValue(type, field, r, flexible, nullable, label) {
    const choose = (nullableRead, plainRead) => (nullable === 'true' ? nullableRead : nullable === 'false' ? plainRead
      : `(${nullable} ? ${nullableRead} : ${plainRead})`);
    switch (type.kind) {
      case 'string':
        return choose(`${r}.nullableString(${flexible})`, `${r}.string(${flexible}, ${label})`);
      case 'bytes':
      case 'records':
        return choose(`${r}.nullableBytes(${flexible})`, `${r}.bytes(${flexible}, ${label})`);
      case 'array': {
        const element = this.readValue(type.element, field, r, flexible, 'false', label.replace(/"$/, ' element"'));
        const reader = `() => ${element}`;
        return choose(`${r}.nullableArray(${flexible}, ${label}, ${reader})`, `${r}.array(${flexible}, ${label}, ${reader})`);
      }
      case 'struct':
        return `read${type.name}(${r}, v)`;
      default:
        return `${r}.${type.kind}()`;
    }
  }

  /** Statements writing `x` (of `type`) to writer `w`. */
  writeValue(code, type, field, w, x, flexible, nullable, label) {
    const choose = (nullableWrite, plainWrite) => {
      if (nullable === 'true') {
        code.line(`${nullableWrite};`);
      } else if (nullable === 'false') {
        code.line(`${plainWrite};`);
      } else {
        code.open(`if (${nullable}) {`);
        code.line(`${nullableWrite};`);
        code.close('} else {');
        code.depth++;
        code.line(`${plainWrite};`);
        code.close();
      }
    };
    switch (type.kind) {
      case 'string':
        choose(`${w}.nullableString(${flexible}, ${x})`, `${w}.string(${flexible}, ${x}, ${label})`);
        return;
      case 'bytes':
      case 'records':
        choose(`${w}.nullableBytes(${flexible}, ${x})`, `${w}.bytes(${flexible}, ${x}, ${label})`);
        return;
      case 'array': {
        const element = new Code();
        element.depth = code.depth + 1;
        this.writeValue(element, type.element, field, w, 'e', flexible, 'false', label.replace(/"$/, ' element"'));
        const body = element.lines.length === 1 ? `(e) => ${element.lines[0].trim().replace(/;$/, '')}`
          : `(e) => {\n${element.text()}\n${'  '.repeat(code.depth)}}`;
        choose(`${w}.nullableArray(${flexible}, ${x}, ${label}, ${body})`, `${w}.array(${flexible}, ${x}, ${label}, ${body})`);
        return;
      }
      case 'struct':
        code.line(`write${type.name}(${w}, v, ${x});`);
        return;
      default:
        code.line(`${w}.${type.kind}(${x});`);
    }
  }

  renderInterface(code) {
    const context = this.context;
    code.open(`export interface ${this.struct.name} {`);
    for (const field of this.struct.fields) {
      const always = intersect(field.versions, context);
      const required = always !== null && always.lo <= context.lo && always.hi >= context.hi
        && intersect(field.taggedVersions, context) === null;
      if (field.about) {
        code.line(`/** ${field.about.replace(/\*\//g, '* /')} */`);
      }
      code.line(`${field.camel}${required ? '' : '?'}: ${tsType(field)};`);
    }
    if (this.flexibleCondition !== 'false') {
      code.line('/** Tagged fields this version of the spec does not know, kept to be written back as they came. */');
      code.line('unknownTaggedFields?: rt.RawTaggedField[];');
    }
    code.close();
  }

  renderDefault(code) {
    code.open(`export function default${this.struct.name}(): ${this.struct.name} {`);
    const entries = this.struct.fields.map((field) => `${field.camel}: ${defaultExpression(field)}`);
    code.line(`return { ${entries.join(', ')} };`);
    code.close();
  }

  renderReader(code) {
    const { struct, message } = this;
    const body = new Code();
    body.depth = 1;
    if (struct.top) {
      body.line(`rt.checkVersion(${JSON.stringify(message.name)}, v, ${message.validVersions.lo}, ${message.validVersions.hi});`);
    }
    const taggedFields = [];
    for (const field of struct.fields) {
      const local = `_${field.camel}`;
      const mandatory = versionCondition(subtract(field.versions, field.taggedVersions), this.context);
      const tagged = versionCondition(intersect(field.taggedVersions, field.versions), this.context);
      if (tagged !== 'false') {
        taggedFields.push({ field, condition: tagged });
      }
      const read = () => this.readStructAware(field, 'r', this.fieldFlexible(field), false);
      if (mandatory === 'true' && tagged === 'false') {
        body.line(`const ${local} = ${read()};`);
      } else if (mandatory === 'false' && tagged === 'false') {
        body.line(`const ${local}: ${tsType(field)} = ${defaultExpression(field)};`);
      } else {
        body.line(`let ${local}: ${tsType(field)} = ${defaultExpression(field)};`);
        if (mandatory !== 'false') {
          body.open(`if (${mandatory}) {`);
          body.line(`${local} = ${read()};`);
          body.close();
        }
      }
    }
    const flexible = this.flexibleCondition !== 'false';
    if (flexible) {
      body.line('let _unknown: rt.RawTaggedField[] | undefined;');
      body.open(this.flexibleCondition === 'true' ? '{' : 'if (fv) {');
      body.line('const count = r.taggedFieldCount();');
      body.open('for (let i = 0; i < count; i++) {');
      body.line('const tag = r.uvarint();');
      body.line('const t = r.taggedField();');
      if (taggedFields.length === 0) {
        body.line('_unknown = rt.addUnknownTaggedField(_unknown, tag, t);');
      } else {
        body.open('switch (tag) {');
        for (const { field, condition } of taggedFields.sort((a, b) => a.field.tag - b.field.tag)) {
          body.open(`case ${field.tag}:`);
          const assign = `_${field.camel} = ${this.readStructAware(field, 't', 'true', true)};`;
          if (condition === 'true') {
            body.line(assign);
          } else {
            body.open(`if (!(${condition})) {`);
            body.line(`throw new rt.ProtocolError(\`Tag ${field.tag} is not valid for version \${v} of ${struct.name}\`);`);
            body.close();
            body.line(assign);
          }
          body.line('break;');
          body.depth--;
        }
        body.open('default:');
        body.line('_unknown = rt.addUnknownTaggedField(_unknown, tag, t);');
        body.depth--;
        body.close();
      }
      body.close();
      body.close();
    }
    const entries = struct.fields.map((field) => `${field.camel}: _${field.camel}`);
    if (flexible) {
      body.line(`const o: ${struct.name} = { ${entries.join(', ')} };`);
      body.open('if (_unknown !== undefined) {');
      body.line('o.unknownTaggedFields = _unknown;');
      body.close();
      body.line('return o;');
    } else {
      body.line(`return { ${entries.join(', ')} };`);
    }
    const usesFlexible = /\bfv\b/.test(body.text());
    const usesVersion = /\bv\b/.test(body.text()) || (usesFlexible && /\bv\b/.test(this.flexibleCondition));
    code.open(`export function read${struct.name}(r: rt.ByteReader, ${usesVersion ? 'v' : '_v'}: number): ${struct.name} {`);
    if (usesFlexible) {
      code.line(`const fv = ${this.flexibleCondition};`);
    }
    code.lines.push(...body.lines);
    code.close();
  }

  /** Reads a field's value, with the marker byte (or varint, when tagged) Kafka puts before a nullable struct. */
  readStructAware(field, r, flexible, tagged) {
    const nullable = this.nullableCondition(field, tagged);
    if (field.type.kind === 'struct') {
      const read = this.readValue(field.type, field, r, flexible, 'false', this.label(field));
      const marker = tagged ? `${r}.uvarint() <= 0` : `${r}.int8() < 0`;
      if (nullable === 'false') {
        return read;
      }
      return nullable === 'true' ? `(${marker} ? null : ${read})` : `((${nullable}) && ${marker} ? null : ${read})`;
    }
    return this.readValue(field.type, field, r, flexible, nullable, this.label(field));
  }

  writeStructAware(code, field, w, x, flexible, tagged) {
    const nullable = this.nullableCondition(field, tagged);
    if (field.type.kind !== 'struct') {
      this.writeValue(code, field.type, field, w, x, flexible, nullable, this.label(field));
      return;
    }
    if (tagged) {
      // MessageDataGenerator: a nullable tagged struct carries a varint 1 before it (0 is null).
      if (nullable !== 'false') {
        code.line(`${w}.uvarint(1);`);
      }
      code.line(`write${field.type.name}(${w}, v, rt.notNull(${x}, ${this.label(field)}));`);
      return;
    }
    if (nullable === 'false') {
      code.line(`write${field.type.name}(${w}, v, rt.notNull(${x}, ${this.label(field)}));`);
      return;
    }
    code.open(`if (${x} === null) {`);
    if (nullable !== 'true') {
      code.line(`rt.nullOnlyIf(${nullable}, ${this.label(field)});`);
    }
    code.line(`${w}.int8(-1);`);
    code.close('} else {');
    code.depth++;
    code.line(`${w}.int8(1);`);
    code.line(`write${field.type.name}(${w}, v, ${x});`);
    code.close();
  }

  renderWriter(code) {
    const { struct, message } = this;
    const body = new Code();
    body.depth = 1;
    if (struct.top) {
      body.line(`rt.checkVersion(${JSON.stringify(message.name)}, v, ${message.validVersions.lo}, ${message.validVersions.hi});`);
    }
    const required = (field) => {
      const always = intersect(field.versions, this.context);
      return always !== null && always.lo <= this.context.lo && always.hi >= this.context.hi
        && intersect(field.taggedVersions, this.context) === null;
    };
    const taggedFields = [];
    for (const field of struct.fields) {
      const local = `_${field.camel}`;
      const present = versionCondition(field.versions, this.context);
      const mandatory = versionCondition(subtract(field.versions, field.taggedVersions), this.context);
      const tagged = versionCondition(intersect(field.taggedVersions, field.versions), this.context);
      const needsCheck = !field.ignorable && present !== 'true';
      if (mandatory === 'false' && tagged === 'false' && !needsCheck) {
        continue;
      }
      body.line(required(field) ? `const ${local} = m.${field.camel};`
        : `const ${local} = m.${field.camel} === undefined ? ${defaultExpression(field)} : m.${field.camel};`);
      if (tagged !== 'false') {
        taggedFields.push({ field, condition: tagged });
      }
      if (mandatory !== 'false') {
        if (mandatory !== 'true') {
          body.open(`if (${mandatory}) {`);
        }
        this.writeStructAware(body, field, 'w', local, this.fieldFlexible(field), false);
        if (mandatory !== 'true') {
          body.close();
        }
      }
      if (needsCheck) {
        const absent = present === 'false' ? '' : `!(${present}) && `;
        body.open(`if (${absent}${nonDefaultCondition(field, local, field.nullableVersions !== null)}) {`);
        body.line(`throw rt.nonDefaultField(${JSON.stringify(field.camel)}, v);`);
        body.close();
      }
    }
    if (this.flexibleCondition !== 'false') {
      body.line('const _raw = m.unknownTaggedFields;');
      body.open(this.flexibleCondition === 'true' ? '{' : 'if (fv) {');
      taggedFields.sort((a, b) => a.field.tag - b.field.tag);
      if (taggedFields.length === 0) {
        body.line('w.uvarint(_raw === undefined ? 0 : _raw.length);');
      } else {
        body.line('let _count = _raw === undefined ? 0 : _raw.length;');
      }
      for (const { field, condition } of taggedFields) {
        const check = nonDefaultCondition(field, `_${field.camel}`, field.nullableVersions !== null);
        body.open(`if (${condition === 'true' ? '' : `${condition} && `}${check}) {`);
        body.line('_count++;');
        body.close();
      }
      if (taggedFields.length > 0) {
        body.line('w.uvarint(_count);');
        body.line('let _next = 0;');
      }
      for (const { field, condition } of taggedFields) {
        const local = `_${field.camel}`;
        body.line(`_next = w.rawTaggedFields(_raw, _next, ${field.tag});`);
        if (condition !== 'true') {
          body.open(`if (${condition}) {`);
        }
        this.renderTaggedWrite(body, field, local);
        if (condition !== 'true') {
          body.close();
        }
      }
      body.line(`w.rawTaggedFields(_raw, ${taggedFields.length > 0 ? '_next' : '0'}, Infinity);`);
      if (this.flexibleCondition === 'true') {
        body.close();
      } else {
        body.close('} else if (_raw !== undefined && _raw.length > 0) {');
        body.depth++;
        body.line('throw rt.taggedFieldsUnsupported(v);');
        body.close();
      }
    }
    const usesFlexible = /\bfv\b/.test(body.text());
    const usesVersion = /\bv\b/.test(body.text()) || (usesFlexible && /\bv\b/.test(this.flexibleCondition));
    code.open(`export function write${struct.name}(w: rt.ByteWriter, ${usesVersion ? 'v' : '_v'}: number, m: ${struct.name}): void {`);
    if (usesFlexible) {
      code.line(`const fv = ${this.flexibleCondition};`);
    }
    code.lines.push(...body.lines);
    code.close();
  }

  /** MessageDataGenerator's tagged write: written when not the default; a null over a non-null default as 0. */
  renderTaggedWrite(code, field, local) {
    const writeValue = () => {
      code.open(`w.tagged(${field.tag}, (t) => {`);
      this.writeStructAware(code, field, 't', local, 'true', true);
      code.close('});');
    };
    if (defaultExpression(field) === 'null') {
      code.open(`if (${local} !== null) {`);
      writeValue();
      code.close();
      return;
    }
    if (hasNull(field)) {
      code.open(`if (${local} === null) {`);
      code.line(`w.taggedNull(${field.tag});`);
      code.close(`} else if (${nonDefaultCondition(field, local, false)}) {`);
    } else {
      code.open(`if (${nonDefaultCondition(field, local, false)}) {`);
    }
    writeValue();
    code.close();
  }
}

function rangeLiteral(range) {
  return range === null ? 'null' : `{ lo: ${range.lo}, hi: ${range.hi} }`;
}

function header(kafkaVersion, source) {
  return `// Generated by scripts/protocol/generate.js from Kafka ${kafkaVersion}'s ${source}. Do not edit: run \`npm run protocol:generate\`.\n`;
}

function renderMessage(message, kafkaVersion) {
  const code = new Code();
  code.lines.push(header(kafkaVersion, `common/message/${message.name}.json`));
  code.line("import * as rt from '../runtime';");
  for (const struct of [message.top, ...message.structs]) {
    const renderer = new StructRenderer(message, struct);
    code.line();
    renderer.renderInterface(code);
    code.line();
    renderer.renderDefault(code);
    code.line();
    renderer.renderReader(code);
    code.line();
    renderer.renderWriter(code);
  }
  code.line();
  code.open(`export const ${message.name}: rt.MessageCodec<${message.top.name}> = {`);
  code.line(`name: ${JSON.stringify(message.name)},`);
  code.line(`type: ${JSON.stringify(message.type)},`);
  code.line(`apiKey: ${message.apiKey === undefined ? 'null' : message.apiKey},`);
  code.line(`validVersions: ${rangeLiteral(message.validVersions)},`);
  code.line(`flexibleVersions: ${rangeLiteral(message.flexibleVersions)},`);
  code.line(`latestVersionUnstable: ${message.latestVersionUnstable},`);
  code.line(`read: read${message.top.name},`);
  code.line(`write: write${message.top.name},`);
  code.line(`defaults: default${message.top.name},`);
  code.close('};');
  return `${code.text()}\n`;
}

/** apis.ts: every API key with its versions, and no codec, so importing it bundles no message code. */
function renderApiTable(messages, kafkaVersion) {
  const requests = messages.filter((m) => m.type === 'request');
  const responses = new Map(messages.filter((m) => m.type === 'response').map((m) => [m.apiKey, m]));
  const code = new Code();
  code.lines.push(header(kafkaVersion, 'common/message/*Request.json and *Response.json'));
  code.line("import type { ApiInfo } from '../apiInfo';");
  code.line();
  code.line('/** Every API key of the pinned Kafka version, by name. */');
  code.open('export const ApiKeys = {');
  for (const request of requests.sort((a, b) => a.apiKey - b.apiKey)) {
    code.line(`${request.name.replace(/Request$/, '')}: ${request.apiKey},`);
  }
  code.close('} as const;');
  code.line();
  code.line('/** Every API, by key: name, valid and flexible versions (the request spec\'s; Kafka keeps the response\'s the same). */');
  code.open('export const apis: readonly ApiInfo[] = [');
  for (const request of requests) {
    const response = responses.get(request.apiKey);
    if (response === undefined || JSON.stringify(response.validVersions) !== JSON.stringify(request.validVersions)
      || JSON.stringify(response.flexibleVersions) !== JSON.stringify(request.flexibleVersions)) {
      throw new Error(`${request.name}: its response spec does not have the same versions`);
    }
    code.line(`{ apiKey: ${request.apiKey}, name: ${JSON.stringify(request.name.replace(/Request$/, ''))}, `
      + `validVersions: ${rangeLiteral(request.validVersions)}, flexibleVersions: ${rangeLiteral(request.flexibleVersions)}, `
      + `latestVersionUnstable: ${request.latestVersionUnstable} },`);
  }
  code.close('];');
  return `${code.text()}\n`;
}

/** allMessages.ts: every codec in one list, for the tests and the cross-check (it pulls in every message). */
function renderAllMessages(messages, kafkaVersion, fileNameOf) {
  const code = new Code();
  code.lines.push(header(kafkaVersion, 'message specs'));
  code.line('// Imports every message; production code imports the one message module it needs instead.');
  code.line("import type { AnyMessageCodec } from '../runtime';");
  for (const message of messages) {
    code.line(`import { ${message.name} } from './${fileNameOf(message.name)}';`);
  }
  code.line();
  code.open('export const allMessages: readonly AnyMessageCodec[] = [');
  for (const message of messages) {
    code.line(`${message.name},`);
  }
  code.close('];');
  return `${code.text()}\n`;
}

/** errorTable.ts: Kafka's Errors enum as data (src/protocol/errorCodes.ts looks codes up in it). */
function renderErrorTable(errors, kafkaVersion) {
  const code = new Code();
  code.lines.push(header(kafkaVersion, 'org.apache.kafka.common.protocol.Errors (printed by scripts/protocol/DumpErrors.java)'));
  for (const line of [
    '/** One entry of the Errors enum (errorCodes.ts re-exports it: the table owns its row type and imports nothing). */',
    'export interface KafkaErrorInfo {',
    '  readonly code: number;',
    '  /** The enum constant, e.g. NOT_COORDINATOR. */',
    '  readonly name: string;',
    '  /** Whether Kafka\'s exception for it is a RetriableException (the client may retry the same request). */',
    '  readonly retriable: boolean;',
    '  /** The exception\'s default message ("" for NONE). */',
    '  readonly message: string;',
    '}',
    '',
  ]) {
    code.lines.push(line);
  }
  code.open('export const errorTable: readonly KafkaErrorInfo[] = [');
  for (const error of errors) {
    code.line(`{ code: ${error.code}, name: ${JSON.stringify(error.name)}, retriable: ${error.retriable}, message: ${JSON.stringify(error.message)} },`);
  }
  code.close('];');
  return `${code.text()}\n`;
}

module.exports = { renderErrorTable, normalizeSpec, renderMessage, renderApiTable, renderAllMessages, MAX_VERSION };
