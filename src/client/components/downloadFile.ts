import { request, type RequestOptions } from '../../web/providers/httpClient';

/** The file name of a Content-Disposition header (filename* first), or the fallback. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const encoded = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (encoded) {
    try {
      return decodeURIComponent(encoded[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // a badly encoded name: try the plain one
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1].trim() : fallback;
}

/**
 * Downloads a file through the http client (so the token and the other headers go with it): fetch →
 * blob → object URL → a click on an <a download>. Failures are handled like any request.
 */
export async function downloadFile(url: string, fallbackName: string, options: Omit<RequestOptions, 'responseType'> = {}): Promise<string> {
  const response = await request<Blob>(url, { ...options, responseType: 'blob', spinner: true });
  const name = fileNameOf(response.headers.get('content-disposition'), fallbackName);
  const href = URL.createObjectURL(response.body);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // the browser has taken the file once the click is handled
  setTimeout(() => URL.revokeObjectURL(href), 1000);
  return name;
}
