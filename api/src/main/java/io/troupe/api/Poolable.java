package io.troupe.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.osgi.service.component.annotations.ComponentPropertyType;

/**
 * Declares a {@link Handler} stateless, so that the runtime may serve it with a pool of actors per
 * tenant instead of one: between {@link #min()} and {@link #max()} instances created from the same
 * factory. Each message goes to one member, the one with the smallest backlog whose current turn is
 * not stalled; the runtime's monitor adds a member while the backlog per member stays high and
 * retires one after the pool has been idle for a while ({@code troupe.pool.idleSeconds}). Messages
 * queued for a retiring member are still processed or handed to another member, never lost.
 *
 * <pre>
 * &#64;Component(service = ActorFactory.class)
 * &#64;Handler("thumbnail")
 * &#64;Poolable(min = 1, max = 8)
 * public final class ThumbnailHandler implements ActorFactory { ... }
 * </pre>
 *
 * <p><b>What a pool gives up:</b> members run in parallel, so a pool does not keep the order of
 * messages from one sender, and no member sees every message: keep no state in a poolable actor that
 * another message relies on. Everything else (supervision, hot swap, timers) applies to each member
 * as to any actor.
 *
 * <p>Without Declarative Services, register the factory with the service properties {@value #MIN}
 * and {@value #MAX} (integers, or strings holding one) next to {@value Handler#PROPERTY}. An invalid
 * declaration (not an integer, {@code min < 1} or {@code max < min}) is logged as an error and the
 * handler is served by a single actor, as if it were not poolable.
 *
 * <p><b>Threading:</b> an annotation, read when the handler's service is registered; it makes the
 * members of a pool run concurrently with each other, each member still one message at a time.
 */
@ComponentPropertyType
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Poolable {

    /** Prefix that turns the element names {@code min} and {@code max} into {@value #MIN} and {@value #MAX}. */
    String PREFIX_ = "troupe.pool.";

    /** The service property holding the fewest members a tenant's pool keeps (an integer, at least 1). */
    String MIN = "troupe.pool.min";

    /** The service property holding the most members a tenant's pool may grow to (an integer, at least min). */
    String MAX = "troupe.pool.max";

    /** The members a tenant's pool starts with and never shrinks below. */
    int min() default 1;

    /** The most members a tenant's pool may grow to. */
    int max();
}
