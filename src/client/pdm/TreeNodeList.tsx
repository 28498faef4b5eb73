import { useMemo, useState, type DragEvent, type MouseEvent } from 'react';
import { Box, Typography } from '@mui/material';
import FolderIcon from '@mui/icons-material/AccountTree';
import SensorIcon from '@mui/icons-material/Sensors';
import UnitIcon from '@mui/icons-material/Memory';
import { channelCode, type PdmNode } from '../../shared/pdm/model';

interface TreeNodeListProps {
  nodes: readonly PdmNode[];
  selected: ReadonlySet<number>;
  search: string;
  onSelect(ids: Set<number>, anchor: number | null): void;
  /** Dropped `ids` onto `target` (null: the root level, at the end). */
  onDrop(ids: number[], target: number | null): void;
}

const ICONS = { logger: FolderIcon, unit: UnitIcon, sensor: SensorIcon } as const;

/** The nodes in tree order with their depth: children under their parent, by position. */
export function treeOrder(nodes: readonly PdmNode[]): { node: PdmNode; depth: number }[] {
  const children = new Map<number | null, PdmNode[]>();
  for (const node of nodes) {
    const list = children.get(node.parent_id) ?? [];
    list.push(node);
    children.set(node.parent_id, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.position - b.position || a.id - b.id);
  const out: { node: PdmNode; depth: number }[] = [];
  const walk = (parent: number | null, depth: number) => {
    for (const node of children.get(parent) ?? []) {
      out.push({ node, depth });
      walk(node.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/**
 * A data-logger tree as an indented list: click selects, Ctrl/⌘-click adds to the selection, Shift-click
 * selects a range; a node (or the selection it belongs to) dragged onto another becomes its child, onto the
 * bottom strip a root node. A search shows the matching nodes with their ancestors.
 */
export function TreeNodeList({ nodes, selected, search, onSelect, onDrop }: TreeNodeListProps) {
  const [over, setOver] = useState<number | 'root' | null>(null);
  const ordered = useMemo(() => treeOrder(nodes), [nodes]);
  const visible = useMemo(() => {
    const needle = search.trim().toLowerCase();
    if (!needle) return ordered;
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const keep = new Set<number>();
    for (const node of nodes) {
      if (
        !node.name.toLowerCase().includes(needle) &&
        !(node.channel_kind && channelCode(node.channel_kind, node.channel!).toLowerCase() === needle)
      )
        continue;
      for (let at: PdmNode | undefined = node; at; at = at.parent_id === null ? undefined : byId.get(at.parent_id)) keep.add(at.id);
    }
    return ordered.filter(({ node }) => keep.has(node.id));
  }, [ordered, nodes, search]);

  const click = (event: MouseEvent, id: number) => {
    if (event.shiftKey && selected.size) {
      const ids = visible.map((v) => v.node.id);
      const last = [...selected].at(-1)!;
      const [a, b] = [ids.indexOf(last), ids.indexOf(id)].sort((x, y) => x - y);
      onSelect(new Set([...selected, ...ids.slice(a, b + 1)]), id);
    } else if (event.ctrlKey || event.metaKey) {
      const next = new Set(selected);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      onSelect(next, id);
    } else onSelect(new Set([id]), id);
  };
  const dragStart = (event: DragEvent, id: number) => {
    const ids = selected.has(id) ? [...selected] : [id];
    event.dataTransfer.setData('application/x-pdm-nodes', JSON.stringify(ids));
    event.dataTransfer.effectAllowed = 'move';
  };
  const drop = (event: DragEvent, target: number | null) => {
    event.preventDefault();
    setOver(null);
    const raw = event.dataTransfer.getData('application/x-pdm-nodes');
    if (!raw) return;
    const ids = (JSON.parse(raw) as number[]).filter((id) => id !== target);
    if (ids.length) onDrop(ids, target);
  };

  return (
    <Box data-testid="pdm-tree" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, minHeight: 200, userSelect: 'none' }}>
      {visible.map(({ node, depth }) => {
        const Icon = ICONS[node.kind];
        const isSelected = selected.has(node.id);
        return (
          <Box
            key={node.id}
            data-testid="pdm-tree-node"
            data-node-id={node.id}
            data-depth={depth}
            aria-selected={isSelected}
            draggable
            onDragStart={(e) => dragStart(e, node.id)}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(node.id);
            }}
            onDragLeave={() => setOver(null)}
            onDrop={(e) => drop(e, node.id)}
            onClick={(e) => click(e, node.id)}
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 1,
              pl: 1 + depth * 2.5,
              py: 0.5,
              cursor: 'pointer',
              bgcolor: isSelected ? 'action.selected' : over === node.id ? 'action.hover' : undefined,
              outline: over === node.id ? '1px dashed' : undefined,
            }}
          >
            <Icon fontSize="small" color={node.kind === 'sensor' ? 'primary' : 'action'} />
            <Typography variant="body2" data-testid="pdm-tree-node-name">
              {node.name}
            </Typography>
            {node.channel_kind && (
              <Typography variant="caption" color="text.secondary">
                {channelCode(node.channel_kind, node.channel!)}
                {node.unit ? `, ${node.unit}` : ''}
              </Typography>
            )}
          </Box>
        );
      })}
      <Box
        data-testid="pdm-tree-root-drop"
        onDragOver={(e) => {
          e.preventDefault();
          setOver('root');
        }}
        onDragLeave={() => setOver(null)}
        onDrop={(e) => drop(e, null)}
        sx={{ height: 28, bgcolor: over === 'root' ? 'action.hover' : undefined }}
      />
    </Box>
  );
}
