/**
 * A stand-in for the `vscode` module with just the API the extension uses, so activation can be checked
 * in plain Node: it records registered commands, created views and context keys, serves configuration
 * from a map, and answers quick picks and input boxes from a queue. It is not a workbench: rendering,
 * menus and `when` clauses are not exercised here (test/unit/constants.test.ts checks the
 * clauses against package.json; a later suite drives a real workbench).
 */
import Module from 'module';
import { join } from 'path';
import { errorMessage } from '../../../src/protocol/errors';

type Listener<T> = (value: T) => void;

export class EventEmitter<T> {
  private readonly listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>): { dispose(): void } => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      listener(value);
    }
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  id?: string;
  description?: string;
  contextValue?: string;
  iconPath?: unknown;
  tooltip?: unknown;
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(
    public label: string,
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class MarkdownString {
  isTrusted?: boolean;
  supportHtml?: boolean;
  supportThemeIcons?: boolean;
  constructor(public value = '') {}
}

export interface LoggedLine {
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  message: string;
}

export interface FakeTreeView {
  id: string;
  treeDataProvider: {
    getChildren(element?: unknown): Promise<unknown[]> | unknown[];
    getTreeItem(element: unknown): TreeItem;
    onDidChangeTreeData?: (listener: Listener<unknown>) => { dispose(): void };
  };
  visible: boolean;
  visibility: EventEmitter<{ visible: boolean }>;
  disposed: boolean;
  /** The view's message (shown above the rows), as the extension last set it. */
  message?: string;
  /** Rows revealed, in order. */
  revealed: unknown[];
  selection: unknown[];
  selectionChange: EventEmitter<{ selection: unknown[] }>;
}

/** Everything the stub observed, and the knobs a test turns. */
export class Disposable {
  constructor(private readonly onDispose: () => unknown) {}

  static from(...items: Array<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }

  dispose(): void {
    this.onDispose();
  }
}

/** A tool's text answer, as vscode.LanguageModelTextPart. */
export class LanguageModelTextPart {
  constructor(public value: string) {}
}

/** A tool's answer, as vscode.LanguageModelToolResult. */
export class LanguageModelToolResult {
  constructor(public content: unknown[]) {}
}

/** What `vscode.lm.registerTool` was given: the two calls VS Code makes, prepareInvocation first. */
export interface FakeLanguageModelTool {
  prepareInvocation?(options: { input: unknown }, token: unknown): Promise<{ invocationMessage?: unknown; confirmationMessages?: { title: string; message: MarkdownString } } | undefined>;
  invoke(options: { input: unknown; toolInvocationToken: unknown }, token: unknown): Promise<LanguageModelToolResult>;
}

/** Enough of vscode.Uri for joinPath and file dialogs: a POSIX path. */
export class Uri {
  private constructor(readonly path: string) {}

  static file(path: string): Uri {
    return new Uri(path);
  }

  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri([base.path, ...segments].join('/').replace(/\/+/g, '/'));
  }

  get fsPath(): string {
    return this.path;
  }

  toString(): string {
    return `file://${this.path}`;
  }
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

/** A status bar item the extension created: what it shows. */
export interface FakeStatusBarItem {
  text: string;
  tooltip?: unknown;
  command?: unknown;
  name?: string;
  visible: boolean;
  disposed: boolean;
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
}

/** An in-memory Memento for the extension context's workspaceState. */
export class FakeMemento {
  readonly values = new Map<string, unknown>();

  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : defaultValue;
  }

  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) {
      this.values.delete(key);
    } else {
      // A real Memento stores JSON: keep only what survives a round trip.
      this.values.set(key, JSON.parse(JSON.stringify(value)));
    }
  }

  keys(): readonly string[] {
    return [...this.values.keys()];
  }
}

export interface WebviewSerializer {
  deserializeWebviewPanel(panel: unknown, state: unknown): Promise<void>;
}

/** A webview panel the extension opened: its HTML, what it posted, and a way to send it page messages. */
export interface FakeWebviewPanel {
  viewType: string;
  title: string;
  options: { enableScripts?: boolean; localResourceRoots?: Uri[] };
  html: string;
  posted: unknown[];
  disposed: boolean;
  /** Delivers a message as if the page had posted it. */
  receive(message: unknown): void;
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

/** An in-memory SecretStorage for the extension context. */
export class FakeSecretStorage {
  readonly values = new Map<string, string>();
  private readonly changes = new EventEmitter<{ key: string }>();
  readonly onDidChange = this.changes.event;

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }

  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    this.changes.fire({ key });
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
    this.changes.fire({ key });
  }
}

export class StubHost {
  readonly commands = new Map<string, (...args: unknown[]) => unknown>();
  readonly contextKeys = new Map<string, unknown>();
  readonly views: FakeTreeView[] = [];
  readonly logLines: LoggedLine[] = [];
  readonly errorMessages: string[] = [];
  readonly outputChannels: Array<{ name: string; log: boolean }> = [];
  /** Answers for showQuickPick (matched by label) and showInputBox, in order. */
  readonly answers: Array<string | string[] | undefined> = [];
  /** User settings (`globalValue`); `update` writes here. */
  readonly config = new Map<string, unknown>();
  /** Workspace settings (a repository's `.vscode/settings.json`): they override the user's in `get`, as in VS Code. */
  readonly workspaceConfig = new Map<string, unknown>();
  readonly webviewPanels: FakeWebviewPanel[] = [];
  readonly statusBarItems: FakeStatusBarItem[] = [];
  readonly infoMessages: string[] = [];
  readonly warningMessages: string[] = [];
  /** What the extension wrote to the clipboard, last write last. */
  readonly clipboard: string[] = [];
  /** What `vscode.lm.registerTool` registered, by tool name. */
  readonly languageModelTools = new Map<string, FakeLanguageModelTool>();
  readonly configChange = new EventEmitter<{ affectsConfiguration(key: string): boolean }>();

  setConfig(key: string, value: unknown): void {
    this.config.set(key, value);
    this.configChange.fire({ affectsConfiguration: (section) => key === section || key.startsWith(`${section}.`) });
  }

  /** What `vscode.window.registerWebviewPanelSerializer` registered, by view type. */
  readonly webviewSerializers = new Map<string, WebviewSerializer>();

  /** A webview panel as `createWebviewPanel` returns it; also what a test hands a serializer, as VS Code does after a reload. */
  makeWebviewPanel(viewType: string, title: string, options: FakeWebviewPanel['options']) {
    const messages = new EventEmitter<unknown>();
    const disposal = new EventEmitter<void>();
    const panel: FakeWebviewPanel = {
      viewType,
      title,
      options,
      html: '',
      posted: [],
      disposed: false,
      receive: (message) => messages.fire(message),
    };
    this.webviewPanels.push(panel);
    const webview = {
      get options() {
        return panel.options;
      },
      set options(value: FakeWebviewPanel['options']) {
        panel.options = value;
      },
      cspSource: 'vscode-webview://stub',
      get html() {
        return panel.html;
      },
      set html(value: string) {
        panel.html = value;
      },
      asWebviewUri: (uri: Uri) => uri,
      postMessage: async (message: unknown) => {
        panel.posted.push(message);
        return true;
      },
      onDidReceiveMessage: messages.event,
    };
    return {
      webview,
      visible: true,
      reveal: () => undefined,
      onDidChangeViewState: new EventEmitter<unknown>().event,
      onDidDispose: disposal.event,
      dispose: () => {
        if (!panel.disposed) {
          panel.disposed = true;
          disposal.fire();
        }
      },
    };
  }

  nextAnswer(what: string): string | string[] | undefined {
    if (!this.answers.length) {
      throw new Error(`The test gave no answer for ${what}`);
    }
    return this.answers.shift();
  }
}

function createModule(host: StubHost): Record<string, unknown> {
  const log = (level: LoggedLine['level']) => (message: string, ...rest: unknown[]) =>
    host.logLines.push({ level, message: [message, ...rest.map((r) => (errorMessage(r)))].join(' ') });
  return {
    EventEmitter,
    Disposable,
    ConfigurationTarget,
    TreeItem,
    TreeItemCollapsibleState,
    ThemeColor,
    ThemeIcon,
    MarkdownString,
    Uri,
    ProgressLocation,
    StatusBarAlignment,
    ViewColumn,
    LanguageModelTextPart,
    LanguageModelToolResult,
    lm: {
      registerTool: (name: string, tool: FakeLanguageModelTool) => {
        if (host.languageModelTools.has(name)) {
          throw new Error(`Tool ${name} is already registered`);
        }
        host.languageModelTools.set(name, tool);
        return new Disposable(() => host.languageModelTools.delete(name));
      },
    },
    env: {
      clipboard: {
        writeText: async (text: string) => {
          host.clipboard.push(text);
        },
        readText: async () => host.clipboard[host.clipboard.length - 1] ?? '',
      },
    },
    window: {
      createOutputChannel: (name: string, options?: { log?: boolean }) => {
        host.outputChannels.push({ name, log: options?.log === true });
        return { trace: log('trace'), debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), dispose: () => undefined };
      },
      createTreeView: (id: string, options: { treeDataProvider: FakeTreeView['treeDataProvider'] }) => {
        const visibility = new EventEmitter<{ visible: boolean }>();
        const view: FakeTreeView = { id, treeDataProvider: options.treeDataProvider, visible: true, visibility, disposed: false, revealed: [], selection: [], selectionChange: new EventEmitter() };
        host.views.push(view);
        return {
          get visible() { return view.visible; },
          get message() { return view.message; },
          set message(value: string | undefined) { view.message = value; },
          reveal: async (element: unknown) => {
            view.revealed.push(element);
          },
          get selection() { return view.selection; },
          onDidChangeSelection: view.selectionChange.event,
          onDidChangeVisibility: visibility.event,
          dispose: () => (view.disposed = true),
        };
      },
      createStatusBarItem: () => {
        const item: FakeStatusBarItem & { show(): void; hide(): void; dispose(): void } = {
          text: '',
          visible: false,
          disposed: false,
          show: () => (item.visible = true),
          hide: () => (item.visible = false),
          dispose: () => (item.disposed = true),
        };
        host.statusBarItems.push(item);
        return item;
      },
      withProgress: <T>(_options: unknown, task: (progress: unknown, token: unknown) => Thenable<T>) =>
        task({ report: () => undefined }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) }),
      createWebviewPanel: (viewType: string, title: string, _column: unknown, options: FakeWebviewPanel['options']) => host.makeWebviewPanel(viewType, title, options),
      registerWebviewPanelSerializer: (viewType: string, serializer: WebviewSerializer) => {
        host.webviewSerializers.set(viewType, serializer);
        return new Disposable(() => host.webviewSerializers.delete(viewType));
      },
      showSaveDialog: async () => {
        const answer = host.nextAnswer('save dialog');
        return answer === undefined ? undefined : Uri.file(String(answer));
      },
      showOpenDialog: async () => {
        const answer = host.nextAnswer('open dialog');
        return answer === undefined ? undefined : [Uri.file(String(answer))];
      },
      showErrorMessage: async (message: string) => {
        host.errorMessages.push(message);
        return undefined;
      },
      showWarningMessage: async (message: string, ...rest: unknown[]) => {
        // Only a modal warning with buttons asks something; a plain one is a notification.
        const asks = rest.some((r) => typeof r === 'string');
        if (!asks) {
          host.warningMessages.push(message);
          return undefined;
        }
        return host.nextAnswer(`warning "${message}"`);
      },
      showInformationMessage: async (message: string) => {
        host.infoMessages.push(message);
        return undefined;
      },
      setStatusBarMessage: () => ({ dispose: () => undefined }),
      showQuickPick: async (items: Array<{ label: string }>, options: { canPickMany?: boolean; title?: string }) => {
        const answer = host.nextAnswer(`quick pick "${options.title}"`);
        if (answer === undefined) {
          return undefined;
        }
        const labels = Array.isArray(answer) ? answer : [answer];
        const picked = labels.map((label) => {
          const item = items.find((i) => i.label === label);
          if (!item) {
            throw new Error(`"${label}" is not offered by "${options.title}": ${items.map((i) => i.label).join(', ')}`);
          }
          return item;
        });
        return options.canPickMany ? picked : picked[0];
      },
      showInputBox: async (options: { title?: string; validateInput?: (text: string) => string | null | undefined }) => {
        const answer = host.nextAnswer(`input box "${options.title}"`);
        if (answer === undefined) {
          return undefined;
        }
        const text = String(answer);
        const problem = options.validateInput?.(text);
        if (problem) {
          throw new Error(`The test typed "${text}" into "${options.title}", which says: ${problem}`);
        }
        return text;
      },
    },
    commands: {
      registerCommand: (id: string, handler: (...args: unknown[]) => unknown) => {
        if (host.commands.has(id)) {
          throw new Error(`command '${id}' already exists`);
        }
        host.commands.set(id, handler);
        return { dispose: () => host.commands.delete(id) };
      },
      executeCommand: async (id: string, ...args: unknown[]) => {
        if (id === 'setContext') {
          host.contextKeys.set(String(args[0]), args[1]);
          return undefined;
        }
        const handler = host.commands.get(id);
        if (!handler) {
          throw new Error(`command '${id}' not found`);
        }
        return handler(...args);
      },
    },
    workspace: {
      getConfiguration: () => ({
        get: <T>(key: string, defaultValue?: T): T | undefined =>
          host.workspaceConfig.has(key) ? (host.workspaceConfig.get(key) as T) : host.config.has(key) ? (host.config.get(key) as T) : defaultValue,
        inspect: <T>(key: string) => ({ key, globalValue: host.config.get(key) as T | undefined, workspaceValue: host.workspaceConfig.get(key) as T | undefined }),
        update: async (key: string, value: unknown) => host.setConfig(key, value),
      }),
      onDidChangeConfiguration: host.configChange.event,
    },
  };
}

type ModuleLoad = (request: string, parent: unknown, isMain: boolean) => unknown;

/** Makes `require('vscode')` return the stub until the returned function is called. */
export function installVscodeStub(host: StubHost): () => void {
  const moduleWithLoad = Module as unknown as { _load: ModuleLoad };
  const originalLoad = moduleWithLoad._load;
  const stub = createModule(host);
  moduleWithLoad._load = function load(request, parent, isMain) {
    return request === 'vscode' ? stub : originalLoad.call(this, request, parent, isMain);
  };
  return () => {
    moduleWithLoad._load = originalLoad;
  };
}

/**
 * Installs the stub for a suite that requires `src/` modules after it: the returned function uninstalls it and
 * drops the modules loaded since, so no later suite gets copies bound to this stub (and the modules other suites
 * already hold stay as they are).
 */
export function installVscodeStubForSuite(host: StubHost): () => void {
  const cachedBefore = new Set(Object.keys(require.cache));
  const uninstall = installVscodeStub(host);
  return () => {
    uninstall();
    for (const id of Object.keys(require.cache)) {
      if (!cachedBefore.has(id)) {
        delete require.cache[id];
      }
    }
  };
}

/**
 * Installs the stub for a suite that loads `src/` modules itself: those modules bind `vscode` when loaded,
 * so cached copies (bound to an earlier suite's stub) are dropped first, and the ones loaded here are
 * dropped again by the returned uninstaller.
 */
export function installFreshVscodeStub(host: StubHost): () => void {
  const sourceDir = join(__dirname, '..', '..', '..', 'src');
  for (const id of Object.keys(require.cache)) {
    if (id.startsWith(sourceDir)) {
      delete require.cache[id];
    }
  }
  return installVscodeStubForSuite(host);
}
