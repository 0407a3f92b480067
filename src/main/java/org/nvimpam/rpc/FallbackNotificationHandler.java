package org.nvimpam.rpc;

import org.msgpack.core.MessageUnpacker;

/** Handles notifications by any method name; see {@link RpcConnection#onOtherNotification}. */
@FunctionalInterface
public interface FallbackNotificationHandler {
  void handle(String method, MessageUnpacker params) throws Exception;
}
