import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const VSCODE = { name: 'vscode', message: 'The engine layers never import vscode.' };

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', 'test/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      curly: 'error',
      eqeqeq: ['error', 'smart'],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The rules that need types: a dropped promise, a switch that misses a case of a union, type-only imports kept type-only.
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src/protocol/messages/**'],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json', './tsconfig.webview.json', './tsconfig.browser-tests.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  {
    // The engine layers run in plain Node and must never reach for the editor API; the simulator and the
    // real-cluster client never import each other (both speak Kafka through src/protocol).
    files: ['src/offsets/**/*.ts', 'src/timeline/**/*.ts', 'src/health/**/*.ts', 'src/model/**/*.ts', 'src/protocol/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [VSCODE] }] },
  },
  {
    files: ['src/simulator/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [VSCODE], patterns: [{ group: ['**/kafka/**', '**/kafka'], message: 'The simulator never imports the real-cluster client (src/kafka).' }] }] },
  },
  {
    files: ['src/kafka/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [VSCODE], patterns: [{ group: ['**/simulator/**', '**/simulator'], message: 'The real-cluster client never imports the simulator (src/simulator).' }] }] },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', console: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
