/**
 * The MCP tools as package.json's `contributes.languageModelTools` declares them: the same names, descriptions
 * and input schemas as the editor's (one source of truth), with the MCP annotations each tool's effect earns.
 */
import manifest from '../../package.json';

/** The part of JSON Schema the tools' inputSchemas use. */
export interface InputSchema {
  type?: 'object' | 'string' | 'number' | 'array' | 'boolean';
  description?: string;
  enum?: readonly string[];
  items?: InputSchema;
  properties?: Record<string, InputSchema>;
  required?: readonly string[];
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface McpToolDeclaration {
  name: string;
  title: string;
  description: string;
  inputSchema: InputSchema & { type: 'object' };
  annotations: ToolAnnotations;
  /** Tagged "write" in package.json: changes a cluster, so it runs only after the user confirms its preview. */
  writes: boolean;
}

interface ManifestTool {
  name: string;
  displayName: string;
  modelDescription: string;
  tags: readonly string[];
  inputSchema: InputSchema;
}

/**
 * What a write does to the cluster beyond "not read-only". A reset overwrites committed offsets (destructive) and
 * a shift-by moves them again on each call (not idempotent); a deletion or a removal done once leaves nothing
 * for the same call to do again.
 */
const WRITE_EFFECTS: Record<string, { destructive: boolean; idempotent: boolean }> = {
  kafkaGroupLens_executeReset: { destructive: true, idempotent: false },
  kafkaGroupLens_deleteOffsets: { destructive: true, idempotent: true },
  kafkaGroupLens_removeMember: { destructive: true, idempotent: true },
};

/** Runs in memory and touches no cluster: the only tool whose world is closed. */
const CLOSED_WORLD = new Set(['kafkaGroupLens_simulate']);

function declaration(tool: ManifestTool): McpToolDeclaration {
  const writes = tool.tags.includes('write');
  const effect = WRITE_EFFECTS[tool.name];
  if (writes !== (effect !== undefined) || tool.inputSchema.type !== 'object') {
    throw new Error(`package.json's tool ${tool.name} and the MCP server disagree on what it writes or takes; update src/mcp/toolDeclarations.ts`);
  }
  return {
    name: tool.name,
    title: tool.displayName,
    description: tool.modelDescription,
    inputSchema: { ...tool.inputSchema, type: 'object' },
    writes,
    annotations: {
      title: tool.displayName,
      readOnlyHint: !writes,
      destructiveHint: effect?.destructive ?? false,
      idempotentHint: effect?.idempotent ?? true,
      // The cluster tools act on Kafka clusters that other clients share and change.
      openWorldHint: !CLOSED_WORLD.has(tool.name),
    },
  };
}

/** JSON's literal types say `string` where the schema says which strings; the shape is checked per tool above. */
const declaredTools: unknown = manifest.contributes.languageModelTools;

export const MCP_TOOLS: readonly McpToolDeclaration[] = (declaredTools as readonly ManifestTool[]).map(declaration);
