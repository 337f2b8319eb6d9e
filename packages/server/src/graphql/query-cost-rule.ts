import {
  GraphQLError,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  getNamedType,
  getNullableType,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
} from 'graphql';
import type {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLCompositeType,
  GraphQLField,
  GraphQLOutputType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
  ValidationRule,
  ValueNode,
} from 'graphql';

export interface QueryCostOptions {
  /** Maximum total cost of one operation. */
  readonly maxComplexity: number;
  /** Maximum selection depth (fields nested in fields; fragments are followed, root fields are depth 1). */
  readonly maxDepth: number;
  /** Assumed size of a list field when no `limit` argument bounds it. Default 10. */
  readonly defaultListSize?: number;
  /**
   * Known upper bounds of list fields by coordinate (`Type.field`), read once per operation; they
   * replace defaultListSize for lists the server bounds itself (a form's pages, rows, options).
   */
  readonly listSizes?: () => ReadonlyMap<string, number>;
}

export interface QueryMeasure {
  readonly operation: string | null;
  readonly cost: number;
  readonly depth: number;
}

const DEFAULT_LIST_SIZE = 10;
/** Costs saturate here so that huge `limit` values cannot overflow to Infinity and then to NaN (0 * Infinity), which would compare as "within the limit". */
const MAX_COST = Number.MAX_SAFE_INTEGER;

interface Measure {
  readonly cost: number;
  readonly depth: number;
}

const NOTHING: Measure = { cost: 0, depth: 0 };

interface WalkContext {
  readonly schema: GraphQLSchema;
  readonly getFragment: (name: string) => FragmentDefinitionNode | undefined;
  readonly defaultListSize: number;
  readonly listSizes: ReadonlyMap<string, number> | undefined;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
  readonly variableDefaults: ReadonlyMap<string, ValueNode>;
  /** Per operation, because a fragment's `limit: $var` resolves against that operation's variable defaults; `null` marks a fragment being measured (cycle guard). */
  readonly fragments: Map<string, Measure | null>;
}

/**
 * Returns a graphql-js ValidationRule that rejects an operation whose estimated cost or depth
 * exceeds the limits, so a public endpoint cannot be made to do unbounded work.
 */
export function createQueryCostRule(options: QueryCostOptions): ValidationRule {
  const defaultListSize = options.defaultListSize ?? DEFAULT_LIST_SIZE;
  assertLimit('maxComplexity', options.maxComplexity);
  assertLimit('maxDepth', options.maxDepth);
  if (!Number.isInteger(defaultListSize) || defaultListSize < 0) {
    throw new RangeError(`defaultListSize must be a non-negative integer, got ${defaultListSize}.`);
  }
  return (context) => ({
    OperationDefinition(node) {
      // Validation has no variable values, so `limit: $n` is costed at its default or defaultListSize.
      const measure = measureOperation(
        context.getSchema(),
        node,
        (name) => context.getFragment(name) ?? undefined,
        defaultListSize,
        undefined,
        options.listSizes?.(),
      );
      const error = checkLimits(measure, options);
      if (error !== undefined) context.reportError(new GraphQLError(error.message, { nodes: [node], extensions: { code: error.code } }));
      // The measurement already walked the operation and its fragments; this rule need not descend.
      return false;
    },
  });
}

/** The cost and depth of every operation in a document against a schema (exported for tests and for logging). */
export function measureQuery(
  schema: GraphQLSchema,
  document: DocumentNode,
  options: { defaultListSize?: number; variables?: Record<string, unknown>; listSizes?: ReadonlyMap<string, number> } = {},
): QueryMeasure[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
  }
  const defaultListSize = options.defaultListSize ?? DEFAULT_LIST_SIZE;
  return operations.map((operation) => ({
    operation: operation.name?.value ?? null,
    ...measureOperation(schema, operation, (name) => fragments.get(name), defaultListSize, options.variables, options.listSizes),
  }));
}

function checkLimits(measure: Measure, options: QueryCostOptions): { code: string; message: string } | undefined {
  // Depth first: one error per operation, and an over-deep query is the structural problem.
  // `!(x <= limit)` also rejects a NaN, should one ever appear.
  if (!(measure.depth <= options.maxDepth)) {
    return { code: 'QUERY_TOO_DEEP', message: `Query depth ${measure.depth} exceeds the limit of ${options.maxDepth}.` };
  }
  if (!(measure.cost <= options.maxComplexity)) {
    return { code: 'QUERY_TOO_COMPLEX', message: `Query cost ${measure.cost} exceeds the limit of ${options.maxComplexity}.` };
  }
  return undefined;
}

/** A NaN limit would reject every query, so a bad config fails at boot instead; Infinity is allowed and disables that check. */
function assertLimit(name: string, value: number): void {
  if (Number.isNaN(value) || value < 0) throw new RangeError(`${name} must be a non-negative number, got ${value}.`);
}

function measureOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  getFragment: (name: string) => FragmentDefinitionNode | undefined,
  defaultListSize: number,
  variables: Readonly<Record<string, unknown>> | undefined,
  listSizes?: ReadonlyMap<string, number>,
): Measure {
  const variableDefaults = new Map<string, ValueNode>();
  for (const definition of operation.variableDefinitions ?? []) {
    if (definition.defaultValue !== undefined) variableDefaults.set(definition.variable.name.value, definition.defaultValue);
  }
  const context: WalkContext = { schema, getFragment, defaultListSize, listSizes, variables, variableDefaults, fragments: new Map() };
  return measureSelectionSet(context, schema.getRootType(operation.operation) ?? undefined, operation.selectionSet);
}

/**
 * Selections without a narrowing type condition always apply and are summed; on an abstract
 * parent only one concrete type applies per object, so conditioned selections are summed per
 * concrete type and the most expensive type counts.
 */
function measureSelectionSet(context: WalkContext, parentType: GraphQLCompositeType | undefined, selectionSet: SelectionSetNode): Measure {
  let alwaysCost = 0;
  let depth = 0;
  const conditioned: { readonly type: GraphQLCompositeType; readonly cost: number }[] = [];
  for (const selection of selectionSet.selections) {
    let measure: Measure;
    let condition: GraphQLCompositeType | undefined;
    if (selection.kind === Kind.FIELD) {
      measure = measureField(context, parentType, selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      condition = selection.typeCondition ? lookupCompositeType(context.schema, selection.typeCondition.name.value) : undefined;
      measure = measureSelectionSet(context, condition ?? parentType, selection.selectionSet);
    } else {
      const fragment = context.getFragment(selection.name.value);
      condition = fragment ? lookupCompositeType(context.schema, fragment.typeCondition.name.value) : undefined;
      measure = measureFragment(context, fragment);
    }
    depth = Math.max(depth, measure.depth);
    if (condition !== undefined && condition !== parentType && parentType !== undefined && isAbstractType(parentType)) {
      conditioned.push({ type: condition, cost: measure.cost });
    } else {
      alwaysCost += measure.cost;
    }
  }
  if (conditioned.length === 0 || parentType === undefined || !isAbstractType(parentType)) {
    return { cost: saturate(alwaysCost), depth };
  }
  let maxBranch = 0;
  for (const concrete of context.schema.getPossibleTypes(parentType)) {
    let branch = 0;
    for (const entry of conditioned) {
      if (entry.type === concrete || (isAbstractType(entry.type) && context.schema.isSubType(entry.type, concrete))) branch += entry.cost;
    }
    maxBranch = Math.max(maxBranch, branch);
  }
  return { cost: saturate(alwaysCost + maxBranch), depth };
}

function measureFragment(context: WalkContext, fragment: FragmentDefinitionNode | undefined): Measure {
  if (fragment === undefined) return NOTHING;
  const name = fragment.name.value;
  const known = context.fragments.get(name);
  // null: the spread is inside its own fragment; NoFragmentCyclesRule reports it, we just stop.
  if (known === null) return NOTHING;
  if (known !== undefined) return known;
  context.fragments.set(name, null);
  const measure = measureSelectionSet(context, lookupCompositeType(context.schema, fragment.typeCondition.name.value), fragment.selectionSet);
  context.fragments.set(name, measure);
  return measure;
}

function measureField(context: WalkContext, parentType: GraphQLCompositeType | undefined, node: FieldNode): Measure {
  // __typename is answered from the type itself without a resolver, so it is free and adds no depth.
  if (node.name.value === '__typename') return NOTHING;
  const field = lookupField(parentType, node.name.value);
  const childType = field ? getNamedType(field.type) : undefined;
  const child = node.selectionSet
    ? measureSelectionSet(context, isCompositeType(childType) ? childType : undefined, node.selectionSet)
    : NOTHING;
  const size = field ? listSize(context, parentType, field, node) : 1;
  return { cost: saturate(1 + size * child.cost), depth: 1 + child.depth };
}

function lookupField(parentType: GraphQLCompositeType | undefined, name: string): GraphQLField<unknown, unknown> | undefined {
  // The introspection entry points are not in Query's field map; costing them keeps introspection bounded.
  if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
  if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  if (isObjectType(parentType) || isInterfaceType(parentType)) return parentType.getFields()[name];
  return undefined;
}

function lookupCompositeType(schema: GraphQLSchema, name: string): GraphQLCompositeType | undefined {
  const type = schema.getType(name);
  return isCompositeType(type) ? type : undefined;
}

/** 1 for a non-list field; otherwise the bounded size, and every further list level (`[[T]]`) multiplies by defaultListSize. */
function listSize(
  context: WalkContext,
  parentType: GraphQLCompositeType | undefined,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
): number {
  let type: GraphQLOutputType = getNullableType(field.type);
  if (!isListType(type)) return 1;
  // A known bound is a hard upper bound (the server never returns more), so it caps a limit too.
  const known = parentType ? context.listSizes?.get(`${parentType.name}.${field.name}`) : undefined;
  let size = limitValue(context, field, node, known);
  if (known !== undefined) size = Math.min(size, known);
  type = getNullableType(type.ofType);
  while (isListType(type)) {
    size = saturate(size * context.defaultListSize);
    type = getNullableType(type.ofType);
  }
  return size;
}

/** The size a `limit` argument asks for, else the schema default of `limit`, else a known bound, else defaultListSize. */
function limitValue(context: WalkContext, field: GraphQLField<unknown, unknown>, node: FieldNode, known: number | undefined): number {
  const fallback = toSize(field.args.find((arg) => arg.name === 'limit')?.defaultValue) ?? known ?? context.defaultListSize;
  const value = node.arguments?.find((arg) => arg.name.value === 'limit')?.value;
  if (value === undefined) return fallback;
  if (value.kind === Kind.INT) return toSize(Number(value.value)) ?? fallback;
  if (value.kind !== Kind.VARIABLE) return fallback;
  const name = value.name.value;
  if (context.variables !== undefined && Object.hasOwn(context.variables, name)) return toSize(context.variables[name]) ?? fallback;
  const defaultValue = context.variableDefaults.get(name);
  return defaultValue?.kind === Kind.INT ? (toSize(Number(defaultValue.value)) ?? fallback) : fallback;
}

/** A usable size, or undefined. Negative values are not trusted as 0: some stores read `LIMIT -1` as "no limit". */
function toSize(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? saturate(value) : undefined;
}

function saturate(cost: number): number {
  return Math.min(cost, MAX_COST);
}
