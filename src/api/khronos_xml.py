"""Reading the Khronos registry XML: what Caldera's generators (entry points, host dispatch tables) share."""


def declaration(elem):
    """The C declaration text of a <proto> or <param>, and its <name> separately: (type text, name)."""
    parts = [elem.text or ""]
    name = None
    for child in elem:
        if child.tag == "name":
            name = child.text
        else:
            parts.append(child.text or "")
        parts.append(child.tail or "")
    return " ".join("".join(parts).split()), name
