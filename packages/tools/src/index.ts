// Tools
export { readTool } from './read-tool.js';
export type { ReadArgs, ReadToolOptions } from './read-tool.js';
export { writeTool } from './write-tool.js';
export type { WriteArgs, WriteToolOptions } from './write-tool.js';
export { editTool } from './edit-tool.js';
export type { EditArgs, EditToolOptions } from './edit-tool.js';
export { listTool, MAX_LIST_DEPTH } from './list-tool.js';
export type { ListArgs, ListToolOptions } from './list-tool.js';
export { grepTool, MAX_GREP_LINE_CHARS } from './grep-tool.js';
export type { GrepArgs, GrepToolOptions } from './grep-tool.js';
export { bashTool } from './bash-tool.js';
export type { BashArgs, BashResult, BashStarted, BashToolOptions } from './bash-tool.js';
export { MAX_PROGRESS_BYTES, MAX_PROGRESS_EVENT_BYTES, PROGRESS_TRUNCATED_NOTE } from './bash-progress.js';
export type { BashProgress } from './bash-progress.js';
export { commandEnv, isSecretEnvName } from './command-env.js';
export type { CommandEnvOptions } from './command-env.js';
export { fileTools, readOnlyTools } from './tool-sets.js';
export type { FileTools, FileToolsOptions } from './tool-sets.js';

// Confinement and read-before-write
export { isInside, resolveInRoot } from './resolve-in-root.js';
export type { ResolvedPath } from './resolve-in-root.js';
export { assertFreshRead, createReadState, recordWrite, stampOf } from './read-state.js';
export type { FileReadState, FileStamp } from './read-state.js';

// Errors
export {
  BackgroundUnavailableError,
  CommandKilledError,
  EditMatchError,
  InvalidPathError,
  NotTextFileError,
  PathOutsideRootError,
  ReadBeforeWriteError,
} from './tool-errors.js';

// Helpers
export { unifiedDiff } from './unified-diff.js';
export { MAX_BYTES, MAX_FILE_BYTES, MAX_LINES, truncateHead, truncateTail } from './truncate.js';
export type { Truncated, TruncationLimits } from './truncate.js';
export { SKIPPED_FOLDERS } from './walk-tree.js';

// Permissions
export { permissions } from './permissions/permissions.js';
export type { Permissions, PermissionsOptions } from './permissions/permissions.js';
export { BUILT_IN_KINDS } from './permissions/call-subject.js';
export type {
  PermissionBehavior,
  PermissionMode,
  PermissionRecord,
  PermissionRule,
  ToolKind,
} from './permissions/permission-types.js';
