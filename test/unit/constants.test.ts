/**
 * src/constants.ts against package.json's `contributes`, both ways: every command, view, webview panel, context
 * key and setting the code names is contributed (or used in a `when` clause), and everything contributed is
 * named in constants, so a rename on either side fails here rather than in the editor.
 */
import { strict as assert } from 'assert';
import { readFileSync } from 'fs';
import { join } from 'path';
import { COMMANDS, CONTEXT_KEYS, EXTENSION_SECTION, SETTINGS, VIEWS, WEBVIEW_PANELS } from '../../src/constants';
import { BUILT_IN_SCENARIO_NAMES } from '../../src/simulator/editor/simSource';

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}
interface Manifest {
  activationEvents?: string[];
  contributes: {
    commands: Array<{ command: string; title: string; category?: string; icon?: string }>;
    menus: Record<string, MenuEntry[]>;
    views: Record<string, Array<{ id: string }>>;
    viewsWelcome?: Array<{ view: string }>;
    viewsContainers: { activitybar: Array<{ id: string; icon: string }> };
    configuration: { properties: Record<string, { default: unknown; enum?: unknown[] }> };
    languageModelTools: Array<{ name: string; when?: string }>;
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as Manifest;
const { contributes } = manifest;
const sorted = (ids: Iterable<string>): string[] => [...ids].sort();

describe('constants against package.json', () => {
  it('names exactly the contributed commands, each with the category and an icon', () => {
    assert.deepEqual(sorted(Object.values(COMMANDS)), sorted(contributes.commands.map((c) => c.command)));
    assert.equal(new Set(Object.values(COMMANDS)).size, Object.values(COMMANDS).length, 'no id is named twice');
    for (const c of contributes.commands) {
      assert.equal(c.category, 'Kafka Group Lens', c.command);
      assert.match(c.icon ?? '', /^\$\([a-z-]+\)$/, c.command);
    }
  });

  it('only names contributed commands in menus', () => {
    const known = new Set<string>(Object.values(COMMANDS));
    for (const [menu, entries] of Object.entries(contributes.menus)) {
      for (const entry of entries) {
        assert.ok(known.has(entry.command), `${menu} names unknown ${entry.command}`);
      }
    }
  });

  it('names exactly the contributed views, in their own activity-bar container, with refresh on the view toolbar', () => {
    const [container] = contributes.viewsContainers.activitybar;
    assert.equal(container.id, EXTENSION_SECTION);
    assert.match(container.icon, /^media\/.+\.svg$/);
    const contributedViews = Object.values(contributes.views).flatMap((views) => views.map((v) => v.id));
    assert.deepEqual(sorted(contributedViews), sorted(Object.values(VIEWS)));
    assert.deepEqual(contributes.views[container.id].map((v) => v.id), [VIEWS.groups]);
    for (const welcome of contributes.viewsWelcome ?? []) {
      assert.ok(contributedViews.includes(welcome.view), `viewsWelcome names unknown view ${welcome.view}`);
    }
    assert.deepEqual(contributes.menus['view/title'], [
      { command: COMMANDS.refresh, when: `view == ${VIEWS.groups}`, group: 'navigation@1' },
      { command: COMMANDS.addCluster, when: `view == ${VIEWS.groups}`, group: 'navigation@0' },
      { command: COMMANDS.filterGroups, when: `view == ${VIEWS.groups}`, group: 'navigation@2' },
      { command: COMMANDS.clearGroupFilter, when: `view == ${VIEWS.groups} && ${CONTEXT_KEYS.groupFilterActive}`, group: 'navigation@3' },
      { command: COMMANDS.sortGroups, when: `view == ${VIEWS.groups}`, group: 'navigation@4' },
      { command: COMMANDS.findGroup, when: `view == ${VIEWS.groups}`, group: 'navigation@5' },
    ]);
  });

  it('activates on the restorable webview panels', () => {
    const panelEvents = (manifest.activationEvents ?? []).filter((e) => e.startsWith('onWebviewPanel:'));
    assert.deepEqual(sorted(panelEvents), sorted(Object.values(WEBVIEW_PANELS).map((type) => `onWebviewPanel:${type}`)));
  });

  it('uses exactly the context keys constants names in when clauses', () => {
    const builtIn = new Set(['view', 'viewItem', 'false', 'true']);
    const used = new Set<string>();
    // The menus' when clauses and the agent tools' (`contributes.languageModelTools[].when`).
    for (const entries of [...Object.values(contributes.menus), contributes.languageModelTools]) {
      for (const { when } of entries) {
        // Identifiers outside regex literals: `viewItem =~ /^kgl:group:/` yields only viewItem.
        for (const [name] of (when ?? '').replace(/\/[^/]*\//g, '').matchAll(/[A-Za-z][\w.]*/g)) {
          if (!builtIn.has(name) && !Object.values(VIEWS).includes(name as never)) {
            used.add(name);
          }
        }
      }
    }
    assert.deepEqual(sorted(used), sorted(Object.values(CONTEXT_KEYS)));
  });

  it('hides node-only commands from the palette and shows cluster-level simulator ones while a simulator runs', () => {
    const palette = new Map(contributes.menus.commandPalette.map((e) => [e.command, e.when]));
    const nodeOnly = [
      COMMANDS.retry,
      COMMANDS.addConsumer,
      COMMANDS.stopConsumer,
      COMMANDS.crashConsumer,
      COMMANDS.pausePolling,
      COMMANDS.restartConsumer,
      COMMANDS.importResetPlan,
      COMMANDS.undoLastReset,
      COMMANDS.deleteOffsets,
      COMMANDS.deleteGroup,
      COMMANDS.removeStaticMembers,
      COMMANDS.removeStaticMember,
    ];
    for (const id of nodeOnly) {
      assert.equal(palette.get(id), 'false', id);
    }
    for (const id of [COMMANDS.addConsumerGroup, COMMANDS.createTopic, COMMANDS.produceRecords, COMMANDS.stopProducer]) {
      assert.equal(palette.get(id), CONTEXT_KEYS.simulatorActive, id);
    }
    assert.equal(palette.has(COMMANDS.refresh), false, 'refresh stays in the palette');
    // With no row they ask for the group, so the palette and the walkthrough's links can run them.
    for (const id of [COMMANDS.openTimeline, COMMANDS.resetOffsets]) {
      assert.equal(palette.has(id), false, `${id} stays in the palette`);
    }
  });

  it('names exactly the contributed settings, all in the extension section, with their defaults', () => {
    const props = contributes.configuration.properties;
    assert.deepEqual(sorted(Object.values(SETTINGS)), sorted(Object.keys(props)));
    for (const key of Object.values(SETTINGS)) {
      assert.ok(key.startsWith(`${EXTENSION_SECTION}.`), key);
    }
    assert.equal(props[SETTINGS.refreshIntervalSeconds].default, 5);
    assert.equal(props[SETTINGS.simulatorEnabled].default, true);
    assert.equal(props[SETTINGS.simulatorSpeed].default, 1);
    assert.deepEqual(props[SETTINGS.readCommittedGroups].default, []);
    assert.equal(props[SETTINGS.simulatorScenario].default, 'demo');
    assert.deepEqual(props[SETTINGS.simulatorScenario].enum, BUILT_IN_SCENARIO_NAMES, 'the setting offers exactly the built-in scenarios');
  });
});
