"""The one XML text scanner: elements, attributes and comments where the text writes them."""

from __future__ import annotations

from pathlib import Path

from lxml import etree
import pytest

from urdf_tools_ros.core.source.scanner import (Comment, Element, scan, tag_context, tags_holding,
                                                tokens, without_comments)

#: Elements, attributes and comments in the places a scanner can miss them: a DTD, CDATA.
TEXT = (Path(__file__).parent / 'urdf' / 'reader' / 'scanned.xml').read_text()
CORPUS = sorted((Path(__file__).parent / 'corpus').rglob('*.urdf'))


def test_tokens_are_elements_and_comments_with_their_lines() -> None:
    assert [(token.tag, token.first_line, token.last_line) if isinstance(token, Element)
            else (token.body, token.line) for token in tokens(TEXT)] == [
        (' a <comment> with "quotes" ', 6), ('robot', 7, 7), ('link', 8, 8),
        ('joint', 10, 11), ('parent', 12, 12)]
    robot, link, joint, parent = scan(TEXT)
    assert robot.children == [link, joint] and joint.children == [parent]
    assert TEXT[link.start:link.end] == """<link name='a&gt;b' note="1 > 0"/>"""
    assert TEXT[joint.end - 8:joint.end] == '</joint>' and link.end == link.tag_end
    assert [(item.name, item.value, TEXT[item.start:item.end]) for item in link.attributes] == \
        [('name', 'a&gt;b', 'a&gt;b'), ('note', '1 > 0', '1 > 0')]


@pytest.mark.parametrize('path', CORPUS, ids=lambda path: path.name)
def test_scan_finds_the_elements_and_lines_lxml_reads(path: Path) -> None:
    text = path.read_text()  # pybullet's files declare XML version 0.0, which lxml refuses
    root = etree.fromstring(text.replace('version="0.0"', 'version="1.0"', 1).encode())
    expected = [(etree.QName(item).localname, item.sourceline, dict(item.attrib))
                for item in root.iter() if isinstance(item.tag, str)]
    assert [(item.local_tag, item.last_line,
             {a.name: a.value for a in item.attributes if not a.name.startswith('xmlns')})
            for item in scan(text) if '&' not in text[item.start:item.tag_end]] == \
        [item for item in expected if '&' not in str(item[2])]


@pytest.mark.parametrize('text', ['<robot><link></robot>', '<robot>< link/></robot>',
                                  '<robot><link name="a></robot>', '<robot><!-- open</robot>',
                                  '<robot/><'])
def test_scan_refuses_text_that_is_not_well_formed(text: str) -> None:
    with pytest.raises(ValueError):
        scan(text)


def test_a_half_typed_text_gives_what_it_has() -> None:
    text = '<robot>\n<xacro:macro name="m">\n  <link name="${a}"\n  <joint name="j"><!-- open'
    robot, macro, link, joint, comment = tokens(text)
    assert isinstance(robot, Element) and isinstance(macro, Element)
    assert isinstance(link, Element) and isinstance(joint, Element)
    assert (macro.end, robot.end) == (len(text), len(text)) and macro.children == [link, joint]
    assert link.attribute('name') is not None and link.tag_end == text.index('<joint')
    assert isinstance(comment, Comment) and comment.body == ' open'


@pytest.mark.parametrize(('before', 'expected'), [
    ('<joint><parent link="ba', ('parent', 'link', 'ba')),
    ('<xacro:whe', ('xacro:whe', 'tag', 'xacro:whe')),
    ('<xacro:wheel side="l" pre', ('xacro:wheel', '', 'pre')),
    ('<origin xyz="1 ${wi', ('origin', 'xyz', '1 ${wi')),
    ('<parent link="a"/>', None), ('<parent link="a" x', ('parent', '', 'x')),
    ('<parent link=', None), ('no tag', None)])
def test_tag_context_says_what_is_typed_in_a_start_tag(
        before: str, expected: tuple[str, str, str] | None) -> None:
    found = tag_context(before)
    assert ((found[0].tag, *found[1:]) if found else None) == expected


def test_comments_are_left_out_of_tags_and_text_in_place() -> None:
    text = '<r>\n<!-- <x:arg name="c"/> -->\n<x:arg name="a"/><l name="x:arg"/></r>'
    assert [(item.tag, item.first_line) for item in tags_holding(text, '<x:arg')] == \
        [('x:arg', 3)]
    blank = without_comments(text)
    assert len(blank) == len(text) and blank.count('\n') == 2 and '"c"' not in blank
    blank = without_comments(TEXT)  # also in the document type declaration
    assert blank.splitlines()[2:6] == [' ' * 32, '  <!ENTITY e "<a>">', ']>', ' ' * 34]
