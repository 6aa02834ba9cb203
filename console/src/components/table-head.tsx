import type { ComponentChildren } from 'preact';

/**
 * A table's header row: column names, `#` ahead of a name marks a numeric column (right-aligned); `lead`, when
 * given, is the content of a first header cell (a "select all" checkbox).
 */
export function TableHead(props: { readonly columns: readonly string[]; readonly lead?: ComponentChildren }) {
  return (
    <thead>
      <tr>
        {props.lead !== undefined && <th scope="col">{props.lead}</th>}
        {props.columns.map((column) =>
          column.startsWith('#') ? (
            <th key={column} scope="col" class="num">
              {column.slice(1)}
            </th>
          ) : (
            <th key={column} scope="col">
              {column}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
