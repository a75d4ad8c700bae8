package io.troupe.ops.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The server-sent events of {@code GET /console/api/events}: every client gets each published event, each
 * through its own bounded queue ({@link EventClient}), so one slow reader is dropped instead of holding the
 * others back. An event is one {@code event:} line and one {@code data:} line of JSON:
 *
 * <pre>
 *   retry: 2000                          (once, at the start: reconnect after 2 s)
 *
 *   event: update
 *   data: {"overview": {...}, "tenants": {...}, "actors": {...}, "plugins": {...}, "point": {...}, ...}
 *
 * </pre>
 *
 * <p><b>Threading:</b> {@link #open} on a container thread, {@link #publish} on the console's publisher thread
 * (one), {@link #close} when the console stops. The client list is copy-on-write: publishing walks a stable
 * view while clients come and go.
 */
final class EventStream {

    private static final byte[] PREAMBLE = "retry: 2000\n\n".getBytes(StandardCharsets.UTF_8);

    private final CopyOnWriteArrayList<EventClient> clients = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** Starts the event stream of this request: the response stays open until the client goes or is dropped. */
    void open(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (closed) {
            response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, "the console is stopping");
            return;
        }
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType("text/event-stream");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Accel-Buffering", "no");
        AsyncContext async = request.startAsync();
        async.setTimeout(0);
        EventClient[] self = new EventClient[1];
        EventClient client = new EventClient(async, response.getOutputStream(), () -> clients.remove(self[0]));
        self[0] = client;
        async.addListener(client);
        clients.add(client);
        response.getOutputStream().setWriteListener(client);
        client.offer(PREAMBLE);
    }

    /** Sends event {@code name} with {@code json} (one line of JSON) to every client. */
    void publish(String name, byte[] json) {
        if (clients.isEmpty()) {
            return;
        }
        byte[] frame = frame(name, json);
        for (EventClient client : clients) {
            client.offer(frame);
        }
    }

    /** The clients listening now. */
    int clients() {
        return clients.size();
    }

    /** Ends every stream; later opens are refused. */
    void close() {
        closed = true;
        for (EventClient client : clients) {
            client.close("the console stopped");
        }
        clients.clear();
    }

    /** {@code event: name\ndata: json\n\n}; the JSON has no line break (the generator writes none). */
    static byte[] frame(String name, byte[] json) {
        byte[] head = ("event: " + name + "\ndata: ").getBytes(StandardCharsets.UTF_8);
        byte[] frame = new byte[head.length + json.length + 2];
        System.arraycopy(head, 0, frame, 0, head.length);
        System.arraycopy(json, 0, frame, head.length, json.length);
        frame[frame.length - 2] = '\n';
        frame[frame.length - 1] = '\n';
        return frame;
    }
}
