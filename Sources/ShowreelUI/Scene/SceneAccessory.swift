/// Something an app puts on the scene beside its window (a debug drawer's window, the debug
/// window's shake and edge-swipe triggers). A root screen lists its accessories; the scene
/// attaches them when that root comes to the front and detaches them when it leaves (sent
/// home, terminated), so an app's extras never outlive it on screen.
public protocol SceneAccessory: AnyObject {
    func attach(to scene: WindowScene)
    func detach(from scene: WindowScene)
}
