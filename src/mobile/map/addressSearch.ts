import { ADDRESS_SEARCH, addressQuery, type GeocoderItem } from '../../shared/geocoder';

export type AddressFetch = (query: string, signal: AbortSignal) => Promise<GeocoderItem[]>;

export interface AddressSearchOptions {
  /** The city put before the query (GET /api/v1/geocoder/settings). */
  city: () => string;
  fetch: AddressFetch;
  onResults: (items: GeocoderItem[], query: string) => void;
  onBusy?: (busy: boolean) => void;
  onError?: (error: unknown) => void;
  debounceMs?: number;
}

/**
 * The address box's search (field-app spec 2.3 and 9): a query goes out 1 second after the last keystroke,
 * prefixed with the city name; a newer query cancels the one in flight, and an empty box clears the results.
 */
export class AddressSearch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: AbortController | null = null;

  constructor(private readonly options: AddressSearchOptions) {}

  input(text: string): void {
    clearTimeout(this.timer);
    this.inFlight?.abort();
    this.inFlight = null;
    if (!text.trim()) {
      this.options.onBusy?.(false);
      this.options.onResults([], '');
      return;
    }
    this.timer = setTimeout(() => void this.run(text), this.options.debounceMs ?? ADDRESS_SEARCH.debounceMs);
  }

  private async run(text: string): Promise<void> {
    const query = addressQuery(this.options.city(), text);
    const controller = new AbortController();
    this.inFlight = controller;
    this.options.onBusy?.(true);
    try {
      const items = await this.options.fetch(query, controller.signal);
      if (!controller.signal.aborted) this.options.onResults(items.slice(0, ADDRESS_SEARCH.limit), query);
    } catch (error) {
      if (!controller.signal.aborted) this.options.onError?.(error);
    } finally {
      if (this.inFlight === controller) {
        this.inFlight = null;
        this.options.onBusy?.(false);
      }
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.inFlight?.abort();
    this.inFlight = null;
  }
}
