import { useState } from 'react';
import { Box, Button, List, ListItemButton, ListItemText, Paper, Stack, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { Title, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router';
import type { PdmNode } from '../../shared/pdm/model';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useRights } from '../../web/components/useRights';
import { useApiQuery } from '../../web/providers/queries';
import { NodeForm } from './NodeForm';
import { TreeNodeList } from './TreeNodeList';
import { assignVehicles, createNode, createTree, deleteNodes, fetchTree, fetchTrees, moveNodes, updateNode } from './pdmApi';

const ignore = () => undefined; // the http client has shown the server's message already

/**
 * /pdm/tree-editor (code 36): the data-logger trees of vehicle models. The chosen tree (`?tree=` in the URL)
 * shows its nodes; add, rename and edit a node, move nodes by drag and drop, delete a selection, search.
 * After every change the tree is read again and the selection kept. The tree's vehicles: by garage numbers or
 * every vehicle of its model.
 */
export default function TreeEditorScreen() {
  const translate = useTranslate();
  const rights = useRights('/pdm/tree-editor');
  const editable = rights.create || rights.update;
  const [search, setSearch] = useSearchParams();
  const treeId = Number(search.get('tree')) || undefined;
  const treesQuery = useApiQuery(['pdm', 'trees'], () => fetchTrees());
  const trees = treesQuery.data?.list ?? [];
  // the last tree stays in view while the next one is read
  const treeQuery = useApiQuery(['pdm', 'tree', treeId], () => fetchTree(treeId!), { enabled: Boolean(treeId), keepPrevious: true });
  const tree = treeId && !treeQuery.isError ? treeQuery.data : undefined;
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [needle, setNeedle] = useState('');
  const [newTree, setNewTree] = useState({ name: '', model: '' });
  const [newNode, setNewNode] = useState('');
  const [depots, setDepots] = useState('');
  const [confirming, setConfirming] = useState(false);

  // after a change, failed or not: the tree is read again, the selection kept less what is gone, then the trees
  const change = (work: () => Promise<unknown>) =>
    work()
      .catch(ignore)
      .then(async () => {
        const { data: detail } = await treeQuery.refetch();
        if (detail) setSelected((old) => new Set([...old].filter((id) => detail.nodes.some((n) => n.id === id))));
        void treesQuery.refetch();
      });
  const single: PdmNode | undefined = selected.size === 1 ? tree?.nodes.find((n) => selected.has(n.id)) : undefined;

  return (
    <Box sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'flex-start' }}>
      <Title title="menu.pdm.treeEditor" />
      <Paper sx={{ width: 280, p: 1.5, flexShrink: 0 }}>
        <Typography variant="subtitle1">{translate('pdm.tree.trees')}</Typography>
        <List dense data-testid="pdm-trees">
          {trees.map((t) => (
            <ListItemButton
              key={t.id}
              selected={t.id === treeId}
              onClick={() => {
                setSelected(new Set());
                setSearch({ tree: String(t.id) });
              }}
            >
              <ListItemText primary={t.name} secondary={`${t.model ?? '—'} · ${translate('pdm.tree.vehicles', { count: t.vehicles })}`} />
            </ListItemButton>
          ))}
          {treesQuery.isError && (
            <Typography variant="body2" color="error">
              {translate('loadFailed')}
            </Typography>
          )}
          {!trees.length && !treesQuery.isError && (
            <Typography variant="body2" color="text.secondary">
              {translate('pdm.tree.noTrees')}
            </Typography>
          )}
        </List>
        {rights.create && (
          <Stack spacing={1}>
            <TextField
              size="small"
              label={translate('pdm.tree.treeName')}
              value={newTree.name}
              onChange={(e) => setNewTree({ ...newTree, name: e.target.value })}
              slotProps={{ htmlInput: { 'data-testid': 'pdm-new-tree-name' } }}
            />
            <TextField
              size="small"
              label={translate('pdm.tree.model')}
              value={newTree.model}
              onChange={(e) => setNewTree({ ...newTree, model: e.target.value })}
            />
            <Button
              startIcon={<AddIcon />}
              disabled={!newTree.name.trim()}
              data-testid="pdm-new-tree"
              onClick={() =>
                createTree(newTree.name.trim(), newTree.model.trim() || null).then((t) => {
                  setNewTree({ name: '', model: '' });
                  setSearch({ tree: String(t.id) });
                  void treesQuery.refetch();
                }, ignore)
              }
            >
              {translate('pdm.tree.newTree')}
            </Button>
          </Stack>
        )}
      </Paper>
      {!tree ? (
        <Typography color={treeQuery.isError ? 'error' : 'text.secondary'}>
          {translate(treeQuery.isError ? 'loadFailed' : 'pdm.tree.empty')}
        </Typography>
      ) : (
        <>
          <Box sx={{ flex: 1, minWidth: 320 }}>
            <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <TextField
                size="small"
                label={translate('pdm.tree.search')}
                value={needle}
                onChange={(e) => setNeedle(e.target.value)}
                slotProps={{ htmlInput: { 'data-testid': 'pdm-tree-search' } }}
              />
              {editable && (
                <>
                  <TextField
                    size="small"
                    label={translate('pdm.tree.node')}
                    value={newNode}
                    onChange={(e) => setNewNode(e.target.value)}
                    slotProps={{ htmlInput: { 'data-testid': 'pdm-new-node-name' } }}
                  />
                  <Button
                    startIcon={<AddIcon />}
                    disabled={!newNode.trim() || selected.size > 1}
                    data-testid="pdm-add-node"
                    onClick={() =>
                      change(async () => {
                        const parent = selected.size === 1 ? [...selected][0] : null;
                        const created = await createNode(tree.id, {
                          name: newNode.trim(),
                          kind: parent === null ? 'logger' : 'unit',
                          parent_id: parent,
                        });
                        setNewNode('');
                        setSelected(new Set([created.id]));
                      })
                    }
                  >
                    {translate(selected.size === 1 ? 'pdm.tree.addChild' : 'pdm.tree.addRoot')}
                  </Button>
                  <Button
                    color="error"
                    startIcon={<DeleteIcon />}
                    disabled={!selected.size}
                    onClick={() => setConfirming(true)}
                    data-testid="pdm-delete-nodes"
                  >
                    {translate('pdm.tree.delete')}
                  </Button>
                </>
              )}
              {selected.size > 1 && <Typography variant="body2">{translate('pdm.tree.selected', { count: selected.size })}</Typography>}
            </Stack>
            <TreeNodeList
              nodes={tree.nodes}
              selected={selected}
              search={needle}
              onSelect={(ids) => setSelected(ids)}
              onDrop={(ids, target) => {
                if (editable) void change(() => moveNodes(ids, target));
              }}
            />
            <Typography variant="caption" color="text.secondary">
              {translate('pdm.tree.dragHint')}
            </Typography>
          </Box>
          <Paper sx={{ width: 420, p: 1.5, flexShrink: 0 }}>
            {single && editable && <NodeForm node={single} onSave={(changes) => void change(() => updateNode(single.id, changes))} />}
            <Typography variant="subtitle2" sx={{ mt: 2 }} data-testid="pdm-tree-vehicles">
              {translate('pdm.tree.vehicles', { count: tree.vehicles.length })}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ maxHeight: 80, overflow: 'auto' }}>
              {tree.vehicles.map((v) => v.depot_number).join(', ')}
            </Typography>
            {rights.update && (
              <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
                <TextField
                  size="small"
                  label="№ гаражные"
                  value={depots}
                  onChange={(e) => setDepots(e.target.value)}
                  slotProps={{ htmlInput: { 'data-testid': 'pdm-assign-depots' } }}
                />
                <Button
                  data-testid="pdm-assign"
                  onClick={() =>
                    change(() =>
                      assignVehicles(tree.id, {
                        depot_numbers: depots
                          .split(/[\s,;]+/)
                          .filter(Boolean)
                          .map(Number)
                          .filter(Number.isInteger),
                      }),
                    )
                  }
                >
                  {translate('pdm.tree.assignList')}
                </Button>
                {tree.model && (
                  <Button onClick={() => change(() => assignVehicles(tree.id, { model: true }))}>
                    {translate('pdm.tree.assignModel')}
                  </Button>
                )}
              </Stack>
            )}
          </Paper>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        message={translate('pdm.tree.deleteConfirm', { count: selected.size })}
        onConfirm={() => {
          setConfirming(false);
          void change(() => deleteNodes([...selected]));
        }}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}
