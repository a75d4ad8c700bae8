package io.troupe.host.actor;

import io.troupe.api.ChildStopped;

/**
 * A {@link ChildStopped} on its way through the parent's mailbox, tagged with the parent instance it
 * concerns: after a restart, notices about the children of the previous instance are dropped.
 *
 * <p><b>Threading:</b> immutable.
 */
record ChildNotice(ChildStopped stopped, int incarnation) {
}
