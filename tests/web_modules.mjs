// Reads every module of web/ with a real JavaScript parser (acorn, pinned in
// web/package.json) and prints, per file, what it imports and how long each
// of its functions is, for tests/test_web_layout.py.
// usage: node tests/web_modules.mjs [WEB_DIR]   -> JSON on stdout
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(process.argv[2] || path.join(here, "..", "web"));
const require = createRequire(path.join(web, "package.json"));
const acorn = require("acorn");

function modules(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) modules(full, out);
    else if (entry.name.endsWith(".js") || entry.name.endsWith(".mjs")) out.push(full);
  }
  return out;
}

// Every node under `node`, with its parent, depth first.
function walk(node, visit, parent = null) {
  visit(node, parent);
  for (const key of Object.keys(node)) {
    if (key === "type" || key === "start" || key === "end" || key === "loc") continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const child of value) if (child && typeof child.type === "string") walk(child, visit, node);
    } else if (value && typeof value.type === "string") walk(value, visit, node);
  }
}

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

function keyName(key) {
  if (!key) return null;
  return key.type === "Identifier" ? key.name : key.type === "Literal" ? String(key.value) : null;
}

// The name a function goes by: its own, else the variable, property or
// method it is assigned to, else "(anonymous)".
function nameOf(fn, parent) {
  if (fn.id) return fn.id.name;
  if (!parent) return "(anonymous)";
  if (parent.type === "VariableDeclarator") return keyName(parent.id) || "(anonymous)";
  if (parent.type === "Property" || parent.type === "MethodDefinition" || parent.type === "PropertyDefinition") return keyName(parent.key) || "(anonymous)";
  if (parent.type === "AssignmentExpression") {
    const left = parent.left;
    if (left.type === "Identifier") return left.name;
    if (left.type === "MemberExpression") return keyName(left.property) || "(anonymous)";
  }
  return "(anonymous)";
}

const result = {};
for (const file of modules(web).sort()) {
  const rel = path.relative(web, file).split(path.sep).join("/");
  const source = readFileSync(file, "utf8");
  // Classic scripts (the service worker) parse as scripts, the rest as modules.
  let ast;
  try {
    ast = acorn.parse(source, { ecmaVersion: "latest", sourceType: "module", locations: true });
  } catch {
    ast = acorn.parse(source, { ecmaVersion: "latest", sourceType: "script", locations: true });
  }
  const imports = [];
  const functions = [];
  const globals = new Set();
  walk(ast, (node, parent) => {
    const literal = (source) => (source && source.type === "Literal" && typeof source.value === "string" ? source.value : null);
    if (node.type === "ImportDeclaration" || node.type === "ExportNamedDeclaration" || node.type === "ExportAllDeclaration") {
      const spec = literal(node.source);
      if (spec !== null) imports.push({ spec, line: node.loc.start.line, dynamic: false });
    } else if (node.type === "ImportExpression") {
      const spec = literal(node.source);
      if (spec !== null) imports.push({ spec, line: node.loc.start.line, dynamic: true });
    } else if (FUNCTIONS.has(node.type)) {
      functions.push({ name: nameOf(node, parent), line: node.loc.start.line, lines: node.loc.end.line - node.loc.start.line + 1 });
    } else if (node.type === "Identifier" && parent) {
      // A name read as itself: not a property (a.b, {b: ...}) nor a declaration's key.
      const property = (parent.type === "MemberExpression" && parent.property === node && !parent.computed)
        || ((parent.type === "Property" || parent.type === "MethodDefinition") && parent.key === node && !parent.computed);
      if (!property) globals.add(node.name);
    }
  });
  result[rel] = { imports, functions, names: [...globals].sort() };
}
process.stdout.write(JSON.stringify(result));
