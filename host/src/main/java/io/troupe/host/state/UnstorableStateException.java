package io.troupe.host.state;

/**
 * An actor's state holds something the state format cannot store: a class that is neither a JDK value
 * type nor an API value type (a plugin's own class, an {@link io.troupe.api.ActorRef}, a lambda…), a
 * cycle, or absurdly deep nesting. The message names the actor, the offending type and where it sits,
 * as a path from the state's root {@code $}: {@code [3]} is the element at index 3 of a list, set (in
 * iteration order) or array, {@code .totals} or {@code ["a key"]} the value under a string key,
 * {@code {42}} the value under another key, {@code {key 2}} the key of a map's entry 2 itself and
 * {@code .get()} the content of an {@code Optional}:
 *
 * <pre>
 * actor handler:counter.add@acme: state holds com.acme.Total at $.totals[3]; only JDK and API value
 * types can be stored: keep the plugin's own classes out of exportState (see docs/state-format.md)
 * </pre>
 *
 * <p><b>Threading:</b> immutable.
 */
public final class UnstorableStateException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String actor;
    private final String type;
    private final String path;

    UnstorableStateException(String actor, StateFault fault) {
        super("actor " + actor + ": state holds " + fault.what() + " at " + fault.path() + "; " + fault.advice());
        this.actor = actor;
        this.type = fault.type();
        this.path = fault.path();
    }

    /** The actor whose state it is, as the caller named it. */
    public String actor() {
        return actor;
    }

    /** The name of the offending class. */
    public String type() {
        return type;
    }

    /** Where the offending value sits, from the root {@code $}. */
    public String path() {
        return path;
    }
}
