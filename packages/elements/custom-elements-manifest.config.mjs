// Configuration of `cem analyze` (picked up from the package directory), with fixes for how it
// reads these elements: `static properties` entries with `state: true` are internal state, not
// attributes; and only events documented with `@event` are real (the analyzer also reports the
// first argument of every `new XxxEvent(...)` it sees, such as PiErrorEvent's action string); and
// a stable module order, so `scripts/check-manifest.mjs` can compare outputs byte for byte.

/**
 * Drops the attributes of properties declared as `{ state: true }` in `static properties`, and
 * members that are internal (tagged `@internal`, or undocumented state).
 */
function stateIsNotAnAttribute() {
  const states = new Map(); // class name -> Set of property names
  const internals = new Map(); // class name -> Set of `@internal` member names
  return {
    name: "pi-state-is-not-an-attribute",
    analyzePhase({ ts, node }) {
      if (!ts.isClassDeclaration(node) || node.name === undefined) return;
      for (const member of node.members) {
        const isStatic = member.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
        if (
          !isStatic ||
          !ts.isPropertyDeclaration(member) ||
          member.name.getText() !== "properties"
        )
          continue;
        const init = member.initializer;
        if (init === undefined || !ts.isObjectLiteralExpression(init)) continue;
        const names = new Set();
        for (const prop of init.properties) {
          if (!ts.isPropertyAssignment(prop) || !ts.isObjectLiteralExpression(prop.initializer))
            continue;
          const state = prop.initializer.properties.some(
            (p) =>
              ts.isPropertyAssignment(p) &&
              p.name.getText() === "state" &&
              p.initializer.kind === ts.SyntaxKind.TrueKeyword,
          );
          if (state) names.add(prop.name.getText());
        }
        states.set(node.name.getText(), names);
      }
      const internal = new Set();
      for (const member of node.members)
        if (member.name && ts.getJSDocTags(member).some((t) => t.tagName.text === "internal"))
          internal.add(member.name.getText());
      internals.set(node.name.getText(), internal);
    },
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules ?? [])
        for (const decl of mod.declarations ?? []) {
          const names = states.get(decl.name) ?? new Set();
          if (decl.attributes)
            decl.attributes = decl.attributes.filter((a) => !names.has(a.fieldName ?? a.name));
          for (const member of decl.members ?? [])
            if (names.has(member.name)) delete member.attribute;
          // Internal state: marked `@internal`, or state with no documentation at all.
          const internal = internals.get(decl.name) ?? new Set();
          decl.members = decl.members?.filter(
            (m) => !internal.has(m.name) && !(names.has(m.name) && !m.description),
          );
        }
    },
  };
}

/** Keeps only events with a name and a description, that is those documented with `@event`. */
function documentedEventsOnly() {
  return {
    name: "pi-documented-events-only",
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules ?? [])
        for (const decl of mod.declarations ?? []) {
          if (!decl.events) continue;
          decl.events = decl.events.filter((e) => e.name && e.description);
          if (decl.events.length === 0) delete decl.events;
        }
    },
  };
}

/**
 * Names each event's class (`pi-send` -> `PiSendEvent`) when the package declares one, so
 * generated framework types give handlers the real event type instead of a bare `Event`.
 */
function eventClasses() {
  const pascal = (name) => name.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase());
  return {
    name: "pi-event-classes",
    packageLinkPhase({ customElementsManifest }) {
      const classes = new Set(
        (customElementsManifest.modules ?? []).flatMap((mod) =>
          (mod.declarations ?? []).filter((d) => d.kind === "class").map((d) => d.name),
        ),
      );
      for (const mod of customElementsManifest.modules ?? [])
        for (const decl of mod.declarations ?? [])
          for (const event of decl.events ?? []) {
            const name = `${pascal(event.name)}Event`;
            if (event.type === undefined && classes.has(name)) event.type = { text: name };
          }
    },
  };
}

/** Sorts modules by path: the analyzer reads files concurrently, so its order varies by run. */
function sortedModules() {
  return {
    name: "pi-sorted-modules",
    packageLinkPhase({ customElementsManifest }) {
      customElementsManifest.modules?.sort((a, b) =>
        a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
      );
    },
  };
}

export default {
  globs: ["src/**/*.ts"],
  exclude: ["src/**/*.styles.ts"],
  litelement: true,
  // package.json's `customElements` names the shipped manifest; the analyzer would point it at
  // wherever it last wrote (the staleness check writes into node_modules).
  packagejson: false,
  plugins: [stateIsNotAnAttribute(), documentedEventsOnly(), eventClasses(), sortedModules()],
};
