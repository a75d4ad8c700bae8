package io.troupe.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.osgi.service.component.annotations.ComponentPropertyType;

/**
 * Declares a Declarative Services component that provides {@link ActorFactory} as the message handler
 * for one or more message names. The runtime creates one actor per tenant from the factory (or, for a
 * handler also declared {@link Poolable}, a pool of them) and routes every {@link Message} whose name
 * is listed here to it.
 *
 * <pre>
 * &#64;Component(service = ActorFactory.class)
 * &#64;Handler("echo")
 * public final class EchoHandler implements ActorFactory {
 *     public Actor create() { return (ctx, msg) -&gt; ctx.reply(((Message) msg).content()); }
 * }
 * </pre>
 *
 * Without Declarative Services, register the factory with the service property {@value #PROPERTY}.
 *
 * <p><b>Threading:</b> the runtime calls the annotated factory's {@link ActorFactory#create()} from any
 * of its threads, concurrently (once per tenant, and again on each restart); each actor it returns then
 * receives one message at a time.
 */
@ComponentPropertyType
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Handler {

    /** Prefix that turns the element name {@code handler} into the property {@value #PROPERTY}. */
    String PREFIX_ = "troupe.";

    /** The service property holding the message names (a String or String[]). */
    String PROPERTY = "troupe.handler";

    /** The message names this handler serves. */
    String[] value();
}
