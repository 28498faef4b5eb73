/**
 * Leaflet reads a string tooltip, popup or icon as HTML. Names people typed (control regions, employees) go
 * in as a text node instead, so markup in them shows as typed and never becomes an element.
 */
export function textLabel(text: string): HTMLElement {
  const label = document.createElement('span');
  label.textContent = text;
  return label;
}
