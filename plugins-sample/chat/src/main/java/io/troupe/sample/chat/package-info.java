/**
 * The chat sample plugin: a handler that pushes messages to client connections, not only replies.
 *
 * <pre>
 *   ChatHandler &#64;Handler({"chat.join", "chat.leave", "chat.say"})
 *        |  create()                          (one ChatActor per tenant: rooms never cross tenants)
 *        v
 *   ChatActor --- ChatRooms                   RoomName -&gt; members, each a client's ActorRef
 *
 *   client A --REQUEST chat.join  "lobby"--------&gt; ChatActor --"ok"--&gt; A
 *   client A --REQUEST chat.say   "lobby\nhi"----&gt; ChatActor --"ok"--&gt; A
 *                                                     |
 *                                                     +-- tell Message("chat.message", "lobby\nhi")
 *                                                         --&gt; every member's client (A too)
 *                                                             = a SEND frame on each connection
 * </pre>
 *
 * Members whose connection closed ({@link io.troupe.api.ActorRef#isStopped()}) are dropped from a
 * room before each broadcast into it, and from every room by a sweep every 5 seconds.
 *
 * <p>Nothing here is exported: the runtime finds the handler through the OSGi service registry. The
 * rooms live in the actor, so they are empty again after the bundle is stopped or updated.
 */
package io.troupe.sample.chat;
