package io.troupe.itests.plugins;

/**
 * A timer message of the tree plugin's own class: it cannot cross a swap.
 *
 * <p><b>Threading:</b> immutable.
 */
public record TreeTick() {
}
