package io.troupe.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A behaviour: what an actor does with one message. Built by type instead of an {@code instanceof}
 * chain, used by {@link AbstractActor} and switched with {@link ActorContext#become}.
 *
 * <pre>
 * Receive counting = Receive
 *         .match(Integer.class, (ctx, n) -&gt; total += n)
 *         .matchMessage("counter.get", (ctx, request) -&gt; ctx.reply(Message.of("counter.value", "" + total)))
 *         .match(String.class, "reset"::equals, (ctx, reset) -&gt; total = 0)
 *         .build();                           // anything else: ctx.unhandled(message)
 * </pre>
 *
 * Cases are tried in the order they were added; the first whose type (and condition) fits handles
 * the message. A message no case fits goes to {@link ActorContext#unhandled}, which makes it a dead
 * letter with reason {@code unhandled}, unless the builder ends with {@link Builder#orElse}.
 *
 * <p><b>Threading:</b> a built {@code Receive} is immutable and runs on its actor's turn, like
 * {@link Actor#receive}; a {@link Builder} is for one thread.
 *
 * @since 1.4
 */
@FunctionalInterface
public interface Receive {

    /**
     * Handles {@code message} on the actor's turn.
     *
     * @throws Exception as {@link Actor#receive} may: the parent's supervisor strategy decides
     */
    void onMessage(ActorContext ctx, Object message) throws Exception;

    /** One case of a builder: handles a message already known to be a {@code T}. */
    @FunctionalInterface
    interface Case<T> {
        void apply(ActorContext ctx, T message) throws Exception;
    }

    /** A builder whose first case handles messages of {@code type}. */
    static <T> Builder match(Class<T> type, Case<? super T> handler) {
        return new Builder().match(type, handler);
    }

    /** A builder whose first case handles {@link Message}s named {@code name}. */
    static Builder matchMessage(String name, Case<? super Message> handler) {
        return new Builder().matchMessage(name, handler);
    }

    /** A builder whose first case handles messages equal to {@code value}. */
    static Builder matchEquals(Object value, Case<Object> handler) {
        return new Builder().matchEquals(value, handler);
    }

    /** An empty builder. */
    static Builder builder() {
        return new Builder();
    }

    /**
     * Collects cases; {@link #build()} freezes them into a {@link Receive}.
     *
     * <p><b>Threading:</b> not thread-safe: build on one thread, then share the result.
     */
    final class Builder {

        private final List<Entry> entries = new ArrayList<>();

        private record Entry(Class<?> type, Predicate<Object> condition, Case<Object> handler) {
        }

        Builder() {
        }

        /** Handles messages that are instances of {@code type}. */
        public <T> Builder match(Class<T> type, Case<? super T> handler) {
            return add(type, null, handler);
        }

        /** Handles messages that are instances of {@code type} and satisfy {@code condition}. */
        public <T> Builder match(Class<T> type, Predicate<? super T> condition, Case<? super T> handler) {
            Objects.requireNonNull(condition, "condition");
            return add(type, condition, handler);
        }

        /** Handles messages {@linkplain Object#equals equal} to {@code value}. */
        public Builder matchEquals(Object value, Case<Object> handler) {
            Objects.requireNonNull(value, "value");
            return add(Object.class, value::equals, handler);
        }

        /** Handles {@link Message}s whose {@linkplain Message#name() name} is {@code name}. */
        public Builder matchMessage(String name, Case<? super Message> handler) {
            Objects.requireNonNull(name, "name");
            return add(Message.class, message -> name.equals(((Message) message).name()), handler);
        }

        @SuppressWarnings("unchecked")
        private <T> Builder add(Class<T> type, Predicate<? super T> condition, Case<? super T> handler) {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(handler, "handler");
            entries.add(new Entry(type, (Predicate<Object>) condition, (Case<Object>) handler));
            return this;
        }

        /** The behaviour: unmatched messages go to {@link ActorContext#unhandled}. */
        public Receive build() {
            return orElse(ActorContext::unhandled);
        }

        /** The behaviour: unmatched messages go to {@code fallback}. */
        public Receive orElse(Receive fallback) {
            Objects.requireNonNull(fallback, "fallback");
            Entry[] cases = entries.toArray(new Entry[0]);
            return (ctx, message) -> {
                for (Entry entry : cases) {
                    if (entry.type.isInstance(message)
                            && (entry.condition == null || entry.condition.test(message))) {
                        entry.handler.apply(ctx, message);
                        return;
                    }
                }
                fallback.onMessage(ctx, message);
            };
        }
    }
}
