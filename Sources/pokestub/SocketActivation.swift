/// A listening socket the service manager passed at start (socket activation), which the daemon serves
/// instead of binding its own.
///
/// The platform files say how one is found, in ``listeningSocket(environment:)``: systemd's
/// `sd_listen_fds(3)` protocol on Linux (`SocketActivation+Glibc.swift`); on Darwin none is
/// (`SocketActivation+Darwin.swift`): launchd's own sockets are checked in through `launch_activate_socket`,
/// which pokestub does not call, so under launchd it binds its configured address.
enum SocketActivation {}
