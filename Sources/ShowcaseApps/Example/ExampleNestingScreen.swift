import ShowreelRender
import ShowreelUI

/// The demo app's nesting screen ("Nesting Test"), for relative selectors: containers
/// `level-0` ⊃ `level-1` ⊃ `level-2`, each an element holding the next and a caption, inside
/// texts on each side ("left side", "top side", "right side", "bottom side").
final class ExampleNestingScreen: Screen {
    let sides: [Label]
    let levels: [View]
    let captions: [Label]

    init(strings: LocalizedStrings) {
        sides = ["left side", "top side", "right side", "bottom side"].map { Label(strings($0), font: .system(13), alignment: .center) }
        levels = [Color.clear, Color.systemBlue, Color.systemOrange].enumerated().map { level, colour in
            let view = View()
            view.backgroundColor = colour
            view.accessibilityIdentifier = "level-\(level)"
            view.isAccessibilityElement = true
            return view
        }
        captions = (0..<3).map { Label(strings("Container at level %lld", $0), font: .system(13)) }
        super.init(title: strings("Nesting test screen"))
    }

    override func viewDidLoad() {
        for side in sides { view.addSubview(side) }
        // Each level holds the next level and its own caption, as the Flutter Semantics nest.
        view.addSubview(levels[0])
        view.addSubview(captions[0])
        levels[0].addSubview(levels[1])
        levels[0].addSubview(captions[1])
        levels[1].addSubview(levels[2])
        levels[1].addSubview(captions[2])
    }

    override func layout(safeArea: Rect) {
        let body = safeArea.insetBy(dx: 8, dy: 8)
        let (left, top, right, bottom) = (sides[0], sides[1], sides[2], sides[3])
        let size = sides.map { $0.sizeThatFits(Size(width: body.width, height: 20)) }
        left.frame = Rect(x: body.minX, y: body.midY - size[0].height / 2, width: size[0].width, height: size[0].height)
        top.frame = Rect(x: body.midX - size[1].width / 2, y: body.minY, width: size[1].width, height: size[1].height)
        right.frame = Rect(x: body.maxX - size[2].width, y: body.midY - size[2].height / 2, width: size[2].width, height: size[2].height)
        bottom.frame = Rect(
            x: body.midX - size[3].width / 2, y: body.maxY - size[3].height, width: size[3].width, height: size[3].height)
        // Each level is padded inside the one holding it (48 down; across, Flutter's 40, or more
        // where the side texts need it: Flutter turns them a quarter, these stay level).
        let across = max(40, left.frame.width + 8, right.frame.width + 8)
        levels[0].frame = body
        for level in 1..<levels.count {
            let holder = levels[level - 1].frame.size
            levels[level].frame = Rect(
                x: level == 1 ? across : 40, y: 48, width: holder.width - 2 * (level == 1 ? across : 40), height: holder.height - 96)
        }
        // Each caption sits just above its level's box (Flutter stacks them on its corner).
        captions[0].frame = Rect(x: body.minX, y: body.minY, width: 160, height: 18)
        for level in 1..<captions.count {
            let box = levels[level].frame
            captions[level].frame = Rect(x: box.minX, y: box.minY - 22, width: 160, height: 18)
        }
    }
}
