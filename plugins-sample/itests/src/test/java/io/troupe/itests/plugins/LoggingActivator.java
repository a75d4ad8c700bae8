package io.troupe.itests.plugins;

import java.nio.charset.StandardCharsets;
import java.util.Dictionary;
import java.util.Hashtable;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.Handler;
import io.troupe.api.Message;
import io.troupe.api.log.Fatal;

/**
 * A plugin that logs through plain slf4j-api from its actors: it serves the message named by its
 * bundle's {@value #HANDLER_HEADER} header, logs {@code <handler> logged <text>} at INFO, once with
 * an MDC entry of its own ({@code request=<text>}), and replies {@code logged}; given the text
 * {@value #FATAL}, it writes a fatal record with {@link Fatal} instead. The tests build it
 * twice, importing {@code org.slf4j} at {@code [1.7,2)} as third-party bundles do and at
 * {@code [2.0,3)}, and touch only the SLF4J 1.7 API, so both wire to the host's exports.
 *
 * <p><b>Threading:</b> {@code start} and {@code stop} by the framework; the actors on runtime workers.
 */
public final class LoggingActivator implements BundleActivator, ActorFactory {

    /** The text that makes the actor write a fatal record through the API's helper instead. */
    public static final String FATAL = "fatal";

    /** The manifest header naming the message this plugin serves. */
    public static final String HANDLER_HEADER = "Troupe-Test-Handler";

    private ServiceRegistration<ActorFactory> registration;
    private String handler;

    @Override
    public void start(BundleContext context) {
        handler = context.getBundle().getHeaders().get(HANDLER_HEADER);
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Handler.PROPERTY, handler);
        registration = context.registerService(ActorFactory.class, this, properties);
    }

    @Override
    public void stop(BundleContext context) {
        registration.unregister();
    }

    @Override
    public Actor create() {
        Logger log = LoggerFactory.getLogger(LoggingActivator.class.getName() + "." + handler);
        return (ctx, message) -> {
            String text = ((Message) message).text();
            if (text.equals(FATAL)) {
                Fatal.fatal(log, "{} cannot go on", handler);
                ctx.reply("logged".getBytes(StandardCharsets.UTF_8));
                return;
            }
            log.info("{} logged {}", handler, text);
            MDC.put("request", text);
            try {
                log.info("{} logged {} with an MDC entry", handler, text);
            } finally {
                MDC.remove("request");
            }
            ctx.reply("logged".getBytes(StandardCharsets.UTF_8));
        };
    }
}
