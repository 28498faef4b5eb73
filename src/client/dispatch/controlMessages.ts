/** Labels of the service changes and messages screens (dispatchMessages.ts takes them under `dispatch.control`). */
export const controlRu = {
  cancelledBecause: 'Отменён: %{reason}',
  shifted: 'Начало сдвинуто на %{minutes} мин',
};

export const controlEn: typeof controlRu = {
  cancelledBecause: 'Cancelled: %{reason}',
  shifted: 'Start moved by %{minutes} min',
};
