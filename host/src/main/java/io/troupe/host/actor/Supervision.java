package io.troupe.host.actor;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.Actor;
import io.troupe.api.Directive;
import io.troupe.api.SupervisorStrategy;

/**
 * A parent's supervision decision about one failed child: the strategy's directive, turned into
 * {@link Directive#ESCALATE} once the child exceeds the strategy's restarts within its window, and into
 * {@link Directive#STOP} where there is no grandparent to escalate to.
 *
 * <p><b>Threading:</b> stateless; called on the parent's turn, which owns the child's
 * {@link RestartHistory} and the parent's actor instance.
 */
final class Supervision {

    /** The cell's logger, so that log thresholds configured for cells keep applying. */
    private static final Logger LOG = LoggerFactory.getLogger(ActorCell.class);

    private Supervision() {
    }

    /**
     * Decides what to do with {@code child}, which failed with {@code cause}; records a restart in its
     * history (kept by the parent) when the decision is to restart.
     */
    static Directive decide(SupervisorStrategy strategy, ActorCell child, RestartHistory restarts, Throwable cause,
                            long now, boolean canEscalate) {
        Directive directive = strategy.decide(cause);
        if (directive == Directive.RESTART
                && !restarts.tryRecord(now, strategy.maxRestarts(), strategy.window().toNanos())) {
            if (cause instanceof StoreTrouble.Told || child.system().storeTrouble().ongoing()) {
                LOG.debug("Actor {}#{} exceeded {} restarts within {} while the state store fails; escalating",
                        child.name(), child.id(), strategy.maxRestarts(), strategy.window());
            } else {
                LOG.warn("Actor {}#{} exceeded {} restarts within {}; escalating", child.name(), child.id(),
                        strategy.maxRestarts(), strategy.window());
            }
            directive = Directive.ESCALATE;
        }
        if (directive == Directive.ESCALATE && !canEscalate) {
            directive = Directive.STOP;
        }
        return directive;
    }

    /** The strategy of a parent's instance, or the default one if it has none or fails to give one. */
    static SupervisorStrategy strategyOf(Actor actor, ActorCell parent) {
        if (actor == null) {
            return SupervisorStrategy.defaultStrategy();
        }
        try {
            SupervisorStrategy strategy = actor.supervisorStrategy();
            return strategy == null ? SupervisorStrategy.defaultStrategy() : strategy;
        } catch (Throwable t) {
            LOG.warn("supervisorStrategy() of {}#{} failed; using the default", parent.name(), parent.id(), t);
            return SupervisorStrategy.defaultStrategy();
        }
    }
}
