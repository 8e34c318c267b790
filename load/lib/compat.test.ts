// k6 0.46 compatibility of the scripts, checked on their syntax trees: only k6 built-in modules and
// explicit relative `.js` imports, no syntax newer than what k6 0.46 runs, and every script exports what k6
// needs (options, setup, handleSummary and the exec function of each scenario).
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";
import { SCRIPTS as RUNNER_SCRIPTS } from "../runner/k6.ts";

const LOAD = resolve(import.meta.dir, "..");
const K6_MODULES = new Set(["k6", "k6/http", "k6/metrics", "k6/data", "k6/crypto", "k6/encoding", "k6/execution"]);
// Every script the runner knows (load/runner/k6.ts), so a new script cannot skip these checks.
const SCRIPTS = RUNNER_SCRIPTS.map((s) => `${s}.js`);
const files = [
  ...SCRIPTS.map((f) => join(LOAD, f)),
  ...readdirSync(join(LOAD, "lib"))
    .filter((f) => f.endsWith(".js"))
    .map((f) => join(LOAD, "lib", f)),
];

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
}

/** Syntax k6 0.46 may not run, found anywhere in the tree. */
function modernSyntax(sf: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const at = `${sf.fileName.slice(LOAD.length + 1)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node) || ts.isCallExpression(node)) {
      if (node.questionDotToken) found.push(`${at} optional chaining`);
    }
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      if (op === ts.SyntaxKind.QuestionQuestionToken) found.push(`${at} ??`);
      if (
        op === ts.SyntaxKind.QuestionQuestionEqualsToken ||
        op === ts.SyntaxKind.BarBarEqualsToken ||
        op === ts.SyntaxKind.AmpersandAmpersandEqualsToken
      )
        found.push(`${at} logical assignment`);
    }
    if (ts.isPropertyDeclaration(node) || ts.isPrivateIdentifier(node)) found.push(`${at} class field`);
    if (
      ts.isAwaitExpression(node) ||
      (ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword))
    )
      found.push(`${at} async/await`);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) found.push(`${at} dynamic import`);
    if (ts.isBigIntLiteral(node)) found.push(`${at} BigInt`);
    if (ts.isCallExpression(node) && node.getText(sf).startsWith("console.log")) found.push(`${at} console.log`);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function imports(sf: ts.SourceFile): string[] {
  return sf.statements.filter(ts.isImportDeclaration).map((d) => (d.moduleSpecifier as ts.StringLiteral).text);
}

function exportedNames(sf: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const s of sf.statements) {
    const exported = ts.canHaveModifiers(s) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isFunctionDeclaration(s) && s.name) names.add(s.name.text);
    if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) names.add(d.name.text);
  }
  return names;
}

function execNames(sf: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && node.name.getText(sf) === "exec") {
      if (ts.isStringLiteral(node.initializer)) out.push(node.initializer.text);
      else out.push(`<non-literal exec ${node.initializer.getText(sf)}>`);
    }
    if (ts.isShorthandPropertyAssignment(node) && node.name.text === "exec") out.push("<shorthand exec>");
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe("k6 0.46 compatibility", () => {
  for (const file of files) {
    const sf = parse(file);
    const name = file.slice(LOAD.length + 1);
    test(`${name} imports only k6 built-ins and existing relative .js files`, () => {
      const bad = imports(sf).filter(
        (spec) => !K6_MODULES.has(spec) && !(spec.startsWith("./") && spec.endsWith(".js") && existsSync(resolve(dirname(file), spec))),
      );
      expect(bad).toEqual([]);
    });
    test(`${name} uses no syntax newer than k6 0.46 runs`, () => expect(modernSyntax(sf)).toEqual([]));
  }
  test("the checker itself notices modern syntax", () => {
    const sf = ts.createSourceFile(
      join(LOAD, "probe.js"),
      "const a = b?.c ?? 1; class K { x = 1 } async function f() { await a; }",
      ts.ScriptTarget.Latest,
      true,
      ts.ScriptKind.JS,
    );
    expect(
      modernSyntax(sf)
        .map((s) => s.replace(/^.*:\d+ /, ""))
        .sort(),
    ).toEqual(["??", "async/await", "async/await", "class field", "optional chaining"]);
  });
  test("pure lib modules import nothing from k6, so bun can test them", () => {
    for (const file of files.filter((f) => f.includes("/lib/") && !f.endsWith("k6-support.js"))) {
      expect(imports(parse(file)).filter((s) => s.startsWith("k6"))).toEqual([]);
    }
  });
  for (const script of SCRIPTS) {
    test(`${script} exports options, setup, handleSummary and every scenario's exec function`, () => {
      const sf = parse(join(LOAD, script));
      const names = exportedNames(sf);
      const execs = execNames(sf);
      expect(execs.length).toBeGreaterThan(0);
      for (const needed of ["options", "setup", "handleSummary", ...execs])
        expect(names.has(needed) ? needed : `missing export ${needed}`).toBe(needed);
    });
  }
});
