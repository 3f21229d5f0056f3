// Renders the dialog asked for (dialogs.ts), loading each dialog's code only when it is first
// opened.
import { lazy, Suspense } from 'react';
import { type DialogRequest, useOpenDialog } from './dialogs';

const SourceDialog = lazy(() => import('./sources/SourceDialog'));
const SinkDialog = lazy(() => import('./sinks/SinkDialog'));
const RouteDialog = lazy(() => import('./routes/RouteDialog'));
const GroupDialog = lazy(() => import('./groups/GroupDialog'));
const DeleteDialog = lazy(() => import('./entities/DeleteDialog'));
const DelayDialog = lazy(() => import('./entities/DelayDialog'));
const EqualizerDialog = lazy(() => import('./equalizer/EqualizerDialog'));
const ShortcutsDialog = lazy(() => import('./layout/ShortcutsDialog'));
const EditDialog = lazy(() => import('./entities/EditDialog'));
const PlayUrlDialog = lazy(() => import('./sinks/PlayUrlDialog'));

export function DialogHost() {
  const request = useOpenDialog();
  if (!request) return null;
  return <Suspense fallback={null}>{render(request)}</Suspense>;
}

function render(request: DialogRequest) {
  switch (request.type) {
    case 'add-source':
      return <SourceDialog rtp={request.rtp} />;
    case 'add-sink':
      return <SinkDialog />;
    case 'add-route':
      return <RouteDialog initial={request} />;
    case 'add-group':
      return <GroupDialog kind={request.kind} />;
    case 'edit':
      return <EditDialog kind={request.kind} name={request.name} />;
    case 'delete':
      return <DeleteDialog kind={request.kind} name={request.name} />;
    case 'equalizer':
      return <EqualizerDialog kind={request.kind} name={request.name} />;
    case 'delay':
      return <DelayDialog kind={request.kind} name={request.name} />;
    case 'play-url':
      return <PlayUrlDialog sink={request.sink} />;
    case 'shortcuts':
      return <ShortcutsDialog />;
  }
}
