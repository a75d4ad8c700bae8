package io.troupe.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.osgi.service.component.annotations.ComponentPropertyType;

/**
 * Declares a Declarative Services component that provides {@link ActorFactory} under a factory name,
 * so that any actor can {@linkplain ActorContext#spawn(String) spawn} children from it by name.
 *
 * <pre>
 * &#64;Component(service = ActorFactory.class)
 * &#64;Factory("wordcount.chunk")
 * public final class ChunkCounterFactory implements ActorFactory { ... }
 * </pre>
 *
 * Without Declarative Services, register the factory with the service property {@value #PROPERTY}.
 *
 * <p><b>Threading:</b> the runtime calls the annotated factory's {@link ActorFactory#create()} from any of
 * its threads, concurrently when several actors spawn at once; each child it returns then receives one
 * message at a time.
 */
@ComponentPropertyType
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Factory {

    /** Prefix that turns the element name {@code factory} into the property {@value #PROPERTY}. */
    String PREFIX_ = "troupe.";

    /** The service property holding the factory names (a String or String[]). */
    String PROPERTY = "troupe.factory";

    /** The factory names. */
    String[] value();
}
