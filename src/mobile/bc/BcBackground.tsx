import { useOutboxSender } from './outbox';
import { PositionReporter } from './PositionReporter';

/** Ticket control's work behind every screen: the outgoing queue sent when the connection allows, and the position while in work. */
export default function BcBackground() {
  useOutboxSender();
  return <PositionReporter />;
}
